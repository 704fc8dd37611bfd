"""Issue 10: organisers and invitations -- a group starts its own game without an admin.

Modules, one per concept:
``addresses`` (normalising and validating mail addresses), ``quotas`` (limits counted in the
database, and the default rate limit of every endpoint), ``sessions`` (who is signed in: the
session cookie), ``signin`` (magic links: commands and the /signin pages), ``mailer`` (the
outbox of mail that belongs to no game yet: build, deliver, dispatch), ``invitations``
(pending games, invitations, accepting, declining, blocking, replacing, starting the game),
``admin_link`` (an organiser becomes the game admin of their games via ``game_admins``),
``organiser`` (the /organise pages), ``invitation_pages`` (the /invite landing pages) and
``lobby`` (open games with free seats).

Like ``service.admin``, this file stays empty of imports."""
