"""HTTP: the routes, static files, security headers, game records, quick play, readiness."""
