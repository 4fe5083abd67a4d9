"""Stage 2 of printing: the card scans (a bounded image cache fed by parallel downloads, work forked aside while
they arrive, and the JPEGs spliced into the finished PDF byte for byte)."""
