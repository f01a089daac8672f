"""Team events and leagues (issue 28): a club's teams meet over a season, leg by leg.

A league is not an event: a match is played over several legs (tables), each a singles or a
doubles game of cribbage between the home and the away team; the match is won on legs or on
game points, and the league table ranks the teams by match points.

- ``models``: league, team, match, leg and the league's audit log (re-exported by
  :mod:`tournaments.models`, so Django registers them under the ``tournaments`` app);
- ``error_codes``: why a league request is refused, declared once;
- ``services`` (writes, each audited) and ``selectors`` (reads, the league table);
- ``forms``, ``views``, ``api``: the TD's and the public pages and the TD API;
- ``export``: the league as JSON (the results archive carries events, not leagues);
- ``admin``: the Django admin (legs and the log read-only).

The rules chosen are in ``docs/leagues.md``.

Like :mod:`tournaments.stoppa`, this module imports nothing.
"""
