"""Stoppa, one game kind's package: everything that is Stoppa's and no other game's sits here.

- ``models``: a session's tables and each player's seat and chip net (re-exported by
  :mod:`tournaments.models`, so Django registers them under the ``tournaments`` app);
- ``kind``: the :class:`~tournaments.kinds.base.GameKind` the registry (``tournaments.kinds``)
  loads: seating, completeness, standings lines, words and template fragments;
- ``services``: the writes (drawing sessions, recording nets or verified deal records);
- ``selectors``: the reads (re-exported by :mod:`tournaments.selectors`);
- ``forms``, ``views``, ``api``: the TD's and the public pages and the API endpoints.

Its templates stay with the app's (``tournaments/templates``). A third game gets a package
like this one, registered with :func:`tournaments.kinds.register`. This module imports nothing,
so importing a submodule never pulls in the rest.
"""
