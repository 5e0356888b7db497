"""The application: the command line, the Python API, experiment files, the benchmark and
the regression gate's own check. Everything here stands on the layers below; nothing below
imports it."""
