"""The kit the two slicing games share: cutting a circle of slices, majorities, seats and rounds."""
