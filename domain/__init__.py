"""Pure values and rules of memory consolidation: no I/O, no framework."""
