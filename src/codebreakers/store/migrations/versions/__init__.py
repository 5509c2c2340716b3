"""One file per schema revision, numbered 0001, 0002, ...; never edit one that has shipped."""
