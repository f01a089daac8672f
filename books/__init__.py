"""The club's books, the pure calculation core (issue 27).

Money desk arithmetic with no Django in it: coins and rounding (:mod:`books.money`), payout
sheets from final places (:mod:`books.payouts`), side pools that roll over and the night ledger
(:mod:`books.pools`), and the ACC's Master Rating Points and Grass Roots points
(:mod:`books.mrp`). The rules and their sources: ``docs/rules/books.md`` and
``docs/rules/acc-mrp.md``. The Django app (models, services, views) will sit on these.
"""
