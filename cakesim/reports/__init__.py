"""From runs to what a designer reads: summaries, report sections, markdown, figures, the index."""
