"""The mail room: what a mail says and how it travels -- composing (EmailMessage), the
outbox delivery, SMTP transport, Celery dispatch, and reading inbound replies.  The only room
that touches ``smtplib``, ``email`` and Celery."""
