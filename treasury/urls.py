from django.urls import path

from . import views, views_club

E = "td/events/<int:event_id>/money/"

urlpatterns = [
    path("td/money/", views_club.money_home, name="money-home"),
    path("td/clubs/<int:club_id>/money/", views_club.club_money, name="club-money"),
    path("td/clubs/<int:club_id>/money/pools/", views_club.club_pool_new, name="club-pool-new"),
    path(
        "td/clubs/<int:club_id>/money/pools/<int:pool_id>/active/",
        views_club.club_pool_active,
        name="club-pool-active",
    ),
    path(
        "td/clubs/<int:club_id>/money/treasurers/",
        views_club.club_treasurer,
        name="club-treasurer",
    ),
    path(
        "td/clubs/<int:club_id>/money/payout-table/",
        views_club.club_payout_table,
        name="club-payout-table",
    ),
    path(
        "td/clubs/<int:club_id>/money/treasurers/new/",
        views_club.club_treasurer_new,
        name="club-treasurer-new",
    ),
    path("td/clubs/<int:club_id>/money/season/", views_club.season_page, name="money-season"),
    path(
        "td/clubs/<int:club_id>/money/season/new/", views_club.season_new, name="money-season-new"
    ),
    path(
        "td/clubs/<int:club_id>/money/season/<int:season_id>.csv",
        views_club.season_csv,
        name="money-season-csv",
    ),
    path(
        "td/clubs/<int:club_id>/money/season/<int:season_id>.pdf",
        views_club.season_pdf,
        name="money-season-pdf",
    ),
    path(E, views.money_desk, name="money-desk"),
    path(E + "sheet/", views.payout_sheet, name="money-sheet"),
    path(E + "fees/", views.set_fees, name="money-fees"),
    path(E + "entries/<int:entry_id>/pay/", views.pay, name="money-pay"),
    path(E + "payment/", views.part_pay, name="money-part-pay"),
    path(E + "entries/<int:entry_id>/check-in/", views.check_in, name="money-check-in"),
    path(E + "entries/<int:entry_id>/stake/", views.stake, name="money-stake"),
    path(E + "winners/", views.winners, name="money-winners"),
    path(E + "close/", views.close, name="money-close"),
    path(E + "reopen/", views.reopen, name="money-reopen"),
]
