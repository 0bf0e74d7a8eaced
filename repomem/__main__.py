"""`python -m repomem` runs the command line."""

from repomem.cli import main

main()
