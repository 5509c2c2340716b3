"""Load benchmark: a separate-process asyncio client and the bare broadcast endpoint."""
