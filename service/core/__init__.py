"""The core room: configuration, tokens and signed links, refusals, and the one rule set
every input passes at the edge.  Imports nothing else of the service."""
