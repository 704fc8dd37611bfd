"""The web service: HTTP, persistence and authorisation around the pure engine."""
