"""The view room: what a reader is shown -- presenters built from ``engine.view`` only,
pictures of the table, languages and the words of notices and the audit log."""
