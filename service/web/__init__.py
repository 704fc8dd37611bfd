"""The web room: Flask blueprints, the JSON API, forms, the CLI and the inbound mail entry points.

Each view parses its input, authorises the caller, calls one command from
``service.application`` and renders the answer.  Nothing below imports this room."""
