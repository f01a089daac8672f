from django.urls import path

from games_web import api as games_api
from games_web import api_stoppa
from results import api as results_api
from scoring import api as scoring_api
from tournaments import api as tournaments_api
from tournaments import api_td
from tournaments.stoppa import api as tournaments_api_stoppa
from tournaments.threehanded import api as tournaments_api_three
from treasury import api as treasury_api
from treasury import api_club as treasury_club
from treasury import api_pools as treasury_pools

urlpatterns = [
    path("events/", tournaments_api.EventList.as_view(), name="api-events"),
    path("events/<int:event_id>/", api_td.EventDetailTD.as_view(), name="api-event"),
    path(
        "events/<int:event_id>/standings/",
        scoring_api.EventStandings.as_view(),
        name="api-standings",
    ),
    path("events/<int:event_id>/entries/", api_td.EventEntriesTD.as_view(), name="api-entries"),
    path("events/<int:event_id>/games/", api_td.EventGamesTD.as_view(), name="api-games"),
    path(
        "events/<int:event_id>/games/<int:number>/tables/",
        tournaments_api.GameTables.as_view(),
        name="api-game-tables",
    ),
    path(
        "events/<int:event_id>/results/", tournaments_api.EventResults.as_view(), name="api-results"
    ),
    path(
        "events/<int:event_id>/bracket/", tournaments_api.EventBracket.as_view(), name="api-bracket"
    ),
]

# The TD's API: everything the TD console does (api_td), for the club's own scripts.
E = "events/<int:event_id>/"
G = E + "games/<int:number>/"
N = E + "entries/<int:entry_id>/"
urlpatterns += [
    path("clubs/<int:club_id>/events/", api_td.ClubEvents.as_view(), name="api-club-events"),
    path(E + "settings/", api_td.EventSettings.as_view(), name="api-event-settings"),
    path(E + "finish/", api_td.FinishEvent.as_view(), name="api-event-finish"),
    path(E + "reopen/", api_td.ReopenEvent.as_view(), name="api-event-reopen"),
    path(E + "clone/", api_td.CloneEvent.as_view(), name="api-event-clone"),
    path(E + "standings/publish/", api_td.PublishStandings.as_view(), name="api-publish"),
    path(E + "entries/import/", api_td.ImportEntries.as_view(), name="api-entries-import"),
    path(E + "entries/check-in-all/", api_td.CheckInAll.as_view(), name="api-check-in-all"),
    path(N + "check-in/", api_td.CheckInEntry.as_view(), name="api-entry-check-in"),
    path(N + "check-out/", api_td.CheckOutEntry.as_view(), name="api-entry-check-out"),
    path(N + "withdraw/", api_td.WithdrawEntry.as_view(), name="api-entry-withdraw"),
    path(N + "reinstate/", api_td.ReinstateEntry.as_view(), name="api-entry-reinstate"),
    path(G, api_td.GameDetail.as_view(), name="api-game"),
    path(G + "redraw/", api_td.RedrawGame.as_view(), name="api-game-redraw"),
    path(G + "release/", api_td.ReleaseGame.as_view(), name="api-game-release"),
    path(G + "swap/", api_td.SwapSeats.as_view(), name="api-game-swap"),
    path(E + "results/correct/", results_api.CorrectionView.as_view(), name="api-result-correct"),
    path(E + "results/check/", results_api.CheckView.as_view(), name="api-result-check"),
    path(E + "results/undo/", api_td.UndoLastResult.as_view(), name="api-result-undo"),
    path(E + "playoff/", api_td.CreatePlayoff.as_view(), name="api-playoff"),
    path(E + "playoff/games/", api_td.PlayoffGames.as_view(), name="api-playoff-games"),
    path(E + "playoff/games/undo/", api_td.UndoPlayoffGame.as_view(), name="api-playoff-undo"),
    # The money desk (treasury): fees, the door, the payout sheet, the night ledger.
    path(E + "fees/", treasury_api.EventFeesView.as_view(), name="api-event-fees"),
    path(N + "payment/", treasury_api.EntryPaymentView.as_view(), name="api-entry-payment"),
    path(E + "payouts/", treasury_api.PayoutSheetView.as_view(), name="api-payouts"),
    path(E + "ledger/", treasury_api.LedgerView.as_view(), name="api-ledger"),
    path(E + "ledger/close/", treasury_api.CloseNightView.as_view(), name="api-ledger-close"),
    path(E + "ledger/reopen/", treasury_api.ReopenNightView.as_view(), name="api-ledger-reopen"),
    path(E + "pools/", treasury_pools.EventPoolsView.as_view(), name="api-event-pools"),
    path(
        E + "pools/<int:pool_id>/winners/",
        treasury_pools.PoolWinnersView.as_view(),
        name="api-pool-winners",
    ),
    path(N + "stakes/", treasury_pools.EntryStakesView.as_view(), name="api-entry-stakes"),
    path(
        "clubs/<int:club_id>/seasons/<int:season_id>/books/",
        treasury_api.SeasonBooksView.as_view(),
        name="api-season-books",
    ),
    # The club's books: money settings, payout table, side pools, treasurers.
    path("clubs/<int:club_id>/money/", treasury_club.ClubMoneyView.as_view(), name="api-money"),
    path(
        "clubs/<int:club_id>/money/payout-table/",
        treasury_club.PayoutTableView.as_view(),
        name="api-payout-table",
    ),
    path(
        "clubs/<int:club_id>/money/payout-table/preview/",
        treasury_club.PayoutPreviewView.as_view(),
        name="api-payout-preview",
    ),
    path("clubs/<int:club_id>/pools/", treasury_club.ClubPoolsView.as_view(), name="api-pools"),
    path(
        "clubs/<int:club_id>/pools/<int:pool_id>/",
        treasury_club.ClubPoolView.as_view(),
        name="api-pool",
    ),
    path(
        "clubs/<int:club_id>/treasurers/",
        treasury_club.TreasurersView.as_view(),
        name="api-treasurers",
    ),
    path(
        "clubs/<int:club_id>/treasurers/<int:user_id>/",
        treasury_club.TreasurerView.as_view(),
        name="api-treasurer",
    ),
]

urlpatterns += [
    path("cribbage/hand", games_api.HandScoreView.as_view(), name="api-cribbage-hand"),
    path("cribbage/play", games_api.PlayScoreView.as_view(), name="api-cribbage-play"),
    path("cribbage/claim", games_api.ClaimCheckView.as_view(), name="api-cribbage-claim"),
    path("cribbage/game", games_api.GameVerifyView.as_view(), name="api-cribbage-game"),
    path("cribbage/discard", games_api.DiscardAdviceView.as_view(), name="api-cribbage-discard"),
]

urlpatterns += [
    path("stoppa/piccolo", api_stoppa.PiccoloView.as_view(), name="api-stoppa-piccolo"),
    path("stoppa/grosso", api_stoppa.GrossoView.as_view(), name="api-stoppa-grosso"),
    path("stoppa/stop", api_stoppa.StopView.as_view(), name="api-stoppa-stop"),
    path("stoppa/payments", api_stoppa.PaymentsView.as_view(), name="api-stoppa-payments"),
    path("stoppa/deck", api_stoppa.DeckView.as_view(), name="api-stoppa-deck"),
    path("stoppa/deal", api_stoppa.DealVerifyView.as_view(), name="api-stoppa-deal"),
]

urlpatterns += [
    path(
        "events/<int:event_id>/stoppa/sessions/",
        tournaments_api_stoppa.StoppaSessions.as_view(),
        name="api-stoppa-sessions",
    ),
    path(
        "events/<int:event_id>/stoppa/results/",
        tournaments_api_stoppa.StoppaResultCreate.as_view(),
        name="api-stoppa-results",
    ),
    path(
        "events/<int:event_id>/three-handed/games/",
        tournaments_api_three.ThreeHandedGames.as_view(),
        name="api-three-handed-games",
    ),
    path(
        "events/<int:event_id>/three-handed/results/",
        tournaments_api_three.ThreeHandedResultCreate.as_view(),
        name="api-three-handed-results",
    ),
    path(
        "events/<int:event_id>/three-handed/place-points/",
        tournaments_api_three.ThreeHandedPlacePointsView.as_view(),
        name="api-three-handed-place-points",
    ),
]

# Data out: an event's exports (?format=csv|json).
from scoring import api_export as scoring_api_export  # noqa: E402 - appended with its route

urlpatterns += [
    path(
        "events/<int:event_id>/export/<str:what>",
        scoring_api_export.EventExport.as_view(),
        name="api-event-export",
    ),
]

# The public check of an event's results log (issue 27).
from scoring import views_verify  # noqa: E402

urlpatterns += [
    path(
        "events/<int:event_id>/audit/verify/",
        views_verify.EventAuditVerify.as_view(),
        name="api-event-verify",
    ),
]

# Members and guests, the ACC paperwork (issue 27).
from scoring import api_acc as scoring_api_acc  # noqa: E402 - appended with its routes

urlpatterns += [
    path("clubs/<int:club_id>/members/", api_td.ClubMembers.as_view(), name="api-club-members"),
    path(
        "clubs/<int:club_id>/members/<int:membership_id>/",
        api_td.ClubMember.as_view(),
        name="api-club-member",
    ),
    path(E + "door/", api_td.EventDoor.as_view(), name="api-event-door"),
    path(E + "acc-report/", scoring_api_acc.EventAccReport.as_view(), name="api-acc-report"),
    path(E + "mrp/", scoring_api_acc.ComputeMrp.as_view(), name="api-compute-mrp"),
]

# A club's ratings, public like its ratings page (issue 28).
from scoring import api_ratings  # noqa: E402

urlpatterns += [
    path(
        "clubs/<int:club_id>/ratings/", api_ratings.ClubRatings.as_view(), name="api-club-ratings"
    ),
    path(
        "clubs/<int:club_id>/ratings/<int:player_id>/",
        api_ratings.ClubPlayerRating.as_view(),
        name="api-club-player-rating",
    ),
]

# The crosstable (wall chart) of an event, public like its standings (issue 28).
from scoring import api_crosstable  # noqa: E402

urlpatterns += [
    path(
        "events/<int:event_id>/crosstable/",
        api_crosstable.EventCrosstable.as_view(),
        name="api-crosstable",
    ),
]

# A club's leagues (issue 28): leagues, teams, fixtures, legs and the table.
from tournaments.leagues import api as leagues_api  # noqa: E402

L = "leagues/<int:league_id>/"
urlpatterns += [
    path("clubs/<int:club_id>/leagues/", leagues_api.ClubLeagues.as_view(), name="api-leagues"),
    path(L, leagues_api.LeagueDetail.as_view(), name="api-league"),
    path(L + "teams/", leagues_api.LeagueTeams.as_view(), name="api-league-teams"),
    path(L + "matches/", leagues_api.LeagueMatches.as_view(), name="api-league-matches"),
    path(L + "fixtures/", leagues_api.LeagueFixtures.as_view(), name="api-league-fixtures"),
    path(
        L + "matches/<int:match_id>/",
        leagues_api.LeagueMatchDetail.as_view(),
        name="api-league-match",
    ),
    path(
        L + "matches/<int:match_id>/legs/",
        leagues_api.LeagueLegs.as_view(),
        name="api-league-legs",
    ),
    path(L + "table/", leagues_api.LeagueTable.as_view(), name="api-league-table"),
]

# The round clock (issue 28).
from tournaments.api_td import clock as api_td_clock  # noqa: E402

urlpatterns += [
    path(G + "clock/", api_td_clock.GameClock.as_view(), name="api-game-clock"),
    path(
        G + "called-at-time/", api_td_clock.CalledAtTime.as_view(), name="api-game-called-at-time"
    ),
]

# A night that runs itself at the door (issue 28).
urlpatterns += [
    path(E + "registration/", api_td.EventRegistration.as_view(), name="api-event-registration"),
    path(E + "self-check-in/", api_td.EventSelfCheckIn.as_view(), name="api-self-check-in"),
    path("clubs/<int:club_id>/templates/", api_td.ClubTemplates.as_view(), name="api-templates"),
    path(
        "clubs/<int:club_id>/templates/<int:template_id>/",
        api_td.ClubTemplate.as_view(),
        name="api-template",
    ),
    path(
        "clubs/<int:club_id>/templates/<int:template_id>/events/",
        api_td.EventFromTemplate.as_view(),
        name="api-event-from-template",
    ),
]
