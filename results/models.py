"""Results reported from the table: private player keys, submissions (kept as versions),
disputes with the TD's ruling, scorekeepers and print jobs. The audit log of every change of
a result is ``tournaments.AuditEntry``."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .lifecycle import SubmissionStatus


def new_key() -> str:
    """A private link key: 24 random bytes, URL-safe (no account needed, unguessable)."""
    return secrets.token_urlsafe(24)


class PlayerKey(models.Model):
    """The secret key of an entry's private link (printed as a QR code on the score card)."""

    entry = models.OneToOneField(
        "tournaments.Entry", on_delete=models.CASCADE, related_name="key", verbose_name=_("entry")
    )
    key = models.CharField(_("key"), max_length=64, unique=True, default=new_key, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # The language the player picked on their link (?lang=): the link opens in it on any phone.
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, blank=True)

    class Meta:
        verbose_name = _("player key")
        verbose_name_plural = _("player keys")

    def __str__(self) -> str:
        return f"{self.entry} key"


class Scorekeeper(models.Model):
    """A user who may enter and confirm results for a club's events but not change them."""

    club = models.ForeignKey(
        "tournaments.Club",
        on_delete=models.CASCADE,
        related_name="scorekeepers",
        verbose_name=_("club"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="scorekeeping",
        verbose_name=_("user"),
    )

    class Meta:
        verbose_name = _("scorekeeper")
        verbose_name_plural = _("scorekeepers")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_scorekeeper_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club}"


class Submission(models.Model):
    """One version of a table's result as someone reported it. Versions are never deleted."""

    class Source(models.TextChoices):
        PLAYER = "player", _("Player")
        TD = "td", _("Tournament director")
        SCOREKEEPER = "scorekeeper", _("Scorekeeper")
        PAPER = "paper", _("Paper card")

    # The states and their allowed moves are declared in results.lifecycle.
    Status = SubmissionStatus

    table = models.ForeignKey(
        "tournaments.Table",
        on_delete=models.CASCADE,
        related_name="submissions",
        verbose_name=_("table"),
    )
    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.CASCADE,
        related_name="submissions",
        verbose_name=_("event"),
    )
    source = models.CharField(_("source"), max_length=12, choices=Source)
    by_entry = models.ForeignKey(
        "tournaments.Entry",
        on_delete=models.CASCADE,
        related_name="submissions",
        null=True,
        blank=True,
        verbose_name=_("submitted by (player)"),
    )
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=_("submitted by (user)"),
    )
    winner = models.ForeignKey(
        "tournaments.Entry", on_delete=models.CASCADE, related_name="+", verbose_name=_("winner")
    )
    loser_score = models.PositiveSmallIntegerField(_("loser's score"), null=True, blank=True)
    forfeit = models.BooleanField(_("forfeit"), default=False)
    record = models.JSONField(_("game record"), null=True, blank=True)
    report = models.JSONField(_("check report"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=Status, default=Status.PENDING)
    created_at = models.DateTimeField(_("submitted at"), auto_now_add=True)

    class Meta:
        ordering = ["table", "created_at", "pk"]
        verbose_name = _("submission")
        verbose_name_plural = _("submissions")
        constraints = [
            # The rule itself, in the database: a game has at most one confirmed version.
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(status=SubmissionStatus.CONFIRMED),
                name="one_confirmed_submission_per_table",
            )
        ]
        indexes = [models.Index(fields=["event", "status"])]

    def __str__(self) -> str:
        return f"{self.table}: {self.winner} ({self.get_status_display()})"

    def same_outcome(self, other: Submission) -> bool:
        """Whether two versions report the same result."""
        return (
            self.winner_id == other.winner_id
            and self.forfeit == other.forfeit
            and (self.forfeit or self.loser_score == other.loser_score)
        )


class Dispute(models.Model):
    """A table whose versions disagree, waiting for (or settled by) the TD's ruling."""

    table = models.OneToOneField(
        "tournaments.Table",
        on_delete=models.CASCADE,
        related_name="dispute",
        verbose_name=_("table"),
    )
    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.CASCADE,
        related_name="disputes",
        verbose_name=_("event"),
    )
    opened_at = models.DateTimeField(_("opened at"), auto_now_add=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    ruling = models.ForeignKey(
        Submission,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("ruling"),
    )
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=_("ruled by"),
    )
    ruled_at = models.DateTimeField(_("ruled at"), null=True, blank=True)
    note = models.CharField(_("ruling note"), max_length=300, blank=True)

    class Meta:
        ordering = ["event", "opened_at"]
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")

    def __str__(self) -> str:
        return f"{self.table} ({'ruled' if self.ruled_at else 'open'})"

    @property
    def is_open(self) -> bool:
        return self.ruled_at is None


class JobStatus(models.TextChoices):
    """Where a Celery job of the desk stands (print sets, large imports)."""

    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class ProgressMixin:
    """``percent`` of a job with ``done`` and ``total`` counters."""

    done: int
    total: int

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0


class PrintJob(ProgressMixin, models.Model):
    """A set of printables (score cards, table cards, seating list) built by a Celery task."""

    Status = JobStatus

    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.CASCADE,
        related_name="print_jobs",
        verbose_name=_("event"),
    )
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.QUEUED)
    done = models.PositiveIntegerField(_("pages done"), default=0)
    total = models.PositiveIntegerField(_("pages in all"), default=0)
    pdf = models.BinaryField(_("PDF"), null=True, blank=True, editable=False)
    error = models.CharField(_("error"), max_length=300, blank=True)
    base_url = models.CharField(_("site address"), max_length=200)
    # The cards' language: the event's, else the language of the TD who asked for them.
    language = models.CharField(_("language"), max_length=8, blank=True)
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["event", "-created_at"]
        verbose_name = _("print job")
        verbose_name_plural = _("print jobs")

    def __str__(self) -> str:
        return f"{self.event}: {self.get_status_display()} {self.done}/{self.total}"


class ImportJob(ProgressMixin, models.Model):
    """A large paper-card import, checked and written by a Celery task with its progress."""

    Status = JobStatus

    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.CASCADE,
        related_name="import_jobs",
        verbose_name=_("event"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=_("imported by"),
    )
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.QUEUED)
    text = models.TextField(_("CSV"), editable=False)
    done = models.PositiveIntegerField(_("lines checked"), default=0)
    total = models.PositiveIntegerField(_("lines in all"), default=0)
    report = models.JSONField(_("report"), null=True, blank=True, editable=False)
    error = models.CharField(_("error"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["event", "-created_at"]
        verbose_name = _("import job")
        verbose_name_plural = _("import jobs")

    def __str__(self) -> str:
        return f"{self.event}: {self.get_status_display()} {self.done}/{self.total}"


class DiscardReview(models.Model):
    """The discard review of a stored whole-game record (``games.cribbage.review_game``): one
    per submission that carries a record, made by a Celery task after the submission commits.

    ``review`` is ``GameReview.to_dict()`` plus ``entries`` (the entry id of each record
    player, or None when the record's player cannot be matched to the table's seats).
    """

    class Status(models.TextChoices):
        DONE = "done", _("Reviewed")
        REFUSED = "refused", _("The record does not verify")

    submission = models.OneToOneField(
        Submission,
        on_delete=models.CASCADE,
        related_name="discard_review",
        verbose_name=_("submission"),
    )
    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.CASCADE,
        related_name="discard_reviews",
        verbose_name=_("event"),
    )
    table = models.ForeignKey(
        "tournaments.Table",
        on_delete=models.CASCADE,
        related_name="discard_reviews",
        verbose_name=_("table"),
    )
    status = models.CharField(_("status"), max_length=8, choices=Status)
    review = models.JSONField(_("review"), null=True, blank=True)
    created_at = models.DateTimeField(_("reviewed at"), auto_now_add=True)

    class Meta:
        ordering = ["event", "table", "-created_at", "-pk"]
        verbose_name = _("discard review")
        verbose_name_plural = _("discard reviews")
        indexes = [models.Index(fields=["event", "table"])]

    def __str__(self) -> str:
        return f"{self.table}: {self.get_status_display()}"


class NetSheet(models.Model):
    """A table's nets as one of its players reported them (a Stoppa session's chips), for
    every other player at the table to confirm. Sheets are never deleted: a new report
    replaces the open one (whose confirmations then no longer count), and the sheet that
    every player confirmed is recorded through the one Stoppa result service."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for the table's confirmations")
        REPLACED = "replaced", _("Replaced by a later report")
        RECORDED = "recorded", _("Confirmed by every player and recorded")

    table = models.ForeignKey(
        "tournaments.StoppaTable",
        on_delete=models.CASCADE,
        related_name="sheets",
        verbose_name=_("table"),
    )
    by_entry = models.ForeignKey(
        "tournaments.Entry",
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("reported by"),
    )
    # {"<entry id>": net}, every player of the table, summing to zero.
    nets = models.JSONField(_("nets"))
    # Entry ids of the players who confirmed this sheet (its reporter first).
    confirmed_by = models.JSONField(_("confirmed by"), default=list)
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.OPEN)
    created_at = models.DateTimeField(_("reported at"), auto_now_add=True)

    class Meta:
        ordering = ["table", "created_at", "pk"]
        verbose_name = _("net sheet")
        verbose_name_plural = _("net sheets")
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(status="open"),
                name="one_open_sheet_per_table",
            )
        ]

    def __str__(self) -> str:
        return f"{self.table}: sheet {self.pk} ({self.status})"

    def net_of(self, entry_id: int) -> int | None:
        """The net this sheet gives ``entry_id``."""
        return self.nets.get(str(entry_id))
