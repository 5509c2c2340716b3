"""Running the server: settings, metrics, logs, process tuning, limits per address and per
socket, trusted proxies."""
