"""The public profile page, /@/<handle>/."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from players import handles, played, trainer
from players.models import Profile
from players.ratelimit import limited
from ratings import services as ratings_services


@require_GET
@limited("profile", methods=("GET", "HEAD"))
def profile(request, handle: str):
    found = (
        Profile.objects.select_related("user").filter(handle_key=handles.handle_key(handle)).first()
    )
    if found is None:
        raise Http404
    user = found.user
    if handle != user.get_username():
        return redirect("profile", handle=user.get_username(), permanent=False)
    context = {
        "player": user,
        "profile": found,
        "ratings": ratings_services.profile_section(user),
        "played": played.played_by_game(user),
        "recent": played.recent_games(user),
        "take_times": played.karuta_take_times(user),
        "trainer": trainer.summary(user) if found.keep_trainer else None,
    }
    return render(request, "players/profile.html", context)
