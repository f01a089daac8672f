"""Three-handed cribbage, one game kind's package (like ``tournaments.stoppa``).

Tables of three (two where the field does not divide by three), reseated every game so players
meet as few times again as the field allows; a table's result is each player's final score, the
winner's at the event's target. Its tables and seats are Stoppa's models (a table of several
seats, one number per seat: here the final score), so the players' sheet, the archive, the
ratings and the exports of tables of several serve it too.

- ``kind``: the :class:`~tournaments.kinds.base.GameKind` (places, points, standings lines);
- ``services``: the draw and the TD's entry of a table's scores, the place points setting;
- ``forms``, ``views``, ``api``: the TD's game page and the API.

This module imports nothing, so importing a submodule never pulls in the rest.
"""
