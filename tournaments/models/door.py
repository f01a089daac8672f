"""A night that runs itself at the door (issue 28): online registrations, the waiting list,
and a club's saved event templates for the weekly night."""

from __future__ import annotations

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _

from .clubs import Club, Player
from .events import Entry, Event, entry_name


def new_registration_key() -> str:
    """The secret of a registration's own page (no account: the link is the key)."""
    return secrets.token_urlsafe(18)


class Registration(models.Model):
    """One online registration: who asked to play, how to reach them, and their page's key.

    ``entry`` is set while they hold a place in the field (at once below the cap, or when a
    withdrawal moved them up from the waiting list); without it they wait
    (:class:`WaitingPlace`) or left the list.
    """

    class State(models.TextChoices):
        """Where a registration stands, as the player's page says it."""

        IN = "in", _("You're in")
        WAITING = "waiting", _("On the waiting list")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        LEFT = "left", _("Left the waiting list")

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="registrations"
    )
    # A team's registration (a kind played by teams of two) names both partners.
    partner = models.ForeignKey(
        Player,
        verbose_name=_("partner"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="partner_registrations",
    )
    entry = models.OneToOneField(
        Entry,
        verbose_name=_("entry"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="registration",
    )
    email = models.EmailField(_("email"), blank=True)
    phone = models.CharField(_("phone"), max_length=30, blank=True)
    key = models.CharField(
        _("key"), max_length=32, unique=True, default=new_registration_key, editable=False
    )
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    # When a withdrawal moved them up from the waiting list (their page says "You're in").
    moved_up_at = models.DateTimeField(_("moved up at"), null=True, blank=True)
    left_at = models.DateTimeField(_("left the waiting list at"), null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="one_registration_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.name} @ {self.event}"

    @property
    def name(self) -> str:
        """Who registered: the player, or both partners for a team."""
        partner = self.partner if self.partner_id is not None else None
        return entry_name(self.player.name, partner.name if partner is not None else None)


class WaitingPlace(models.Model):
    """A place on an event's waiting list: 1 moves up first when someone withdraws."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="waiting_list"
    )
    registration = models.OneToOneField(
        Registration,
        verbose_name=_("registration"),
        on_delete=models.CASCADE,
        related_name="waiting",
    )
    position = models.PositiveIntegerField(_("position"))
    created_at = models.DateTimeField(_("joined at"), auto_now_add=True)

    class Meta:
        ordering = ["event", "position"]
        verbose_name = _("waiting-list place")
        verbose_name_plural = _("waiting list")

    def __str__(self) -> str:
        return f"{self.position}. {self.registration.player}"


class EventTemplate(models.Model):
    """A club's saved way of playing a night ("Thursday night"): the settings a clone keeps
    (``services.events.CLONED_SETTINGS``) and, in ``extras``, what the apps above keep of
    an event (the money desk's fees and pools), filled and read through ``hooks``."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="event_templates"
    )
    name = models.CharField(_("name"), max_length=120)
    settings = models.JSONField(_("settings"), default=dict)
    extras = models.JSONField(_("kept by the other desks"), default=dict, blank=True)
    created_at = models.DateTimeField(_("saved at"), auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("event template")
        verbose_name_plural = _("event templates")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="one_template_name_per_club")
        ]

    def __str__(self) -> str:
        return self.name
