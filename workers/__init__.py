"""Celery workers: slow side effects (mail delivery, sweeps) driven by committed rows."""
