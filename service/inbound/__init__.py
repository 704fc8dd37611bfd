"""Mail replies (issue 7): a player answers a turn mail with an action's code, its label, or
words for the table.  Mail comes in through the SMTP/LMTP listener (``listener.py``, the
Procfile's ``inbound`` process) or the HTTP webhook (``webhook.py``); both hand the raw
message to ``process.handle``."""
