"""The TD's page of a club's members: the roll by season and the guest rule (issue 27)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import selectors
from .forms.members import GuestRuleForm, MembershipForm
from .models import Membership
from .selectors_members import club_memberships
from .services import members as member_services


def _page(request, club, *, form=None, rule_form=None, status=200) -> HttpResponse:
    context = {
        "club": club,
        "memberships": club_memberships(club)[:500],
        "form": form or MembershipForm(club=club),
        "rule_form": rule_form
        or GuestRuleForm(
            initial={
                "guest_nights_allowed": club.guest_nights_allowed,
                "qualifying_card_points": club.qualifying_card_points,
            }
        ),
    }
    return render(request, "tournaments/td_members.html", context, status=status)


@login_required
def td_members(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's members by season; a new membership (POST)."""
    club = selectors.directed_club(request.user, club_id)
    if request.method != "POST":
        return _page(request, club)
    form = MembershipForm(request.POST, club=club)
    row = form.save(club)
    if row is None:
        return _page(request, club, form=form, status=400)
    messages.success(request, _("%(name)s is a member.") % {"name": row.player.name})
    return redirect("td-members", club_id=club.pk)


@login_required
@require_POST
def td_member_delete(request: HttpRequest, club_id: int, membership_id: int) -> HttpResponse:
    """Remove a membership."""
    club = selectors.directed_club(request.user, club_id)
    row = Membership.objects.filter(pk=membership_id, club=club).first()
    if row is None:
        raise Http404("No such membership.")
    member_services.delete_membership(row)
    messages.success(request, _("Membership removed."))
    return redirect("td-members", club_id=club.pk)


@login_required
@require_POST
def td_guest_rule(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's guest rule."""
    club = selectors.directed_club(request.user, club_id)
    form = GuestRuleForm(request.POST)
    if form.save(club) is None:
        return _page(request, club, rule_form=form, status=400)
    messages.success(request, _("Guest rule saved."))
    return redirect("td-members", club_id=club.pk)
