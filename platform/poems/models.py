"""The shared card database: 100 poets, 100 poems. Loaded by a data migration."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from poems.catalogue import PoetClass


class PoetClassChoices(models.TextChoices):
    NOBLE = PoetClass.NOBLE.value, _("noble (殿)")
    EMPEROR = PoetClass.EMPEROR.value, _("emperor (天皇・院)")
    NYUDO = PoetClass.NYUDO.value, _("nyudo (入道)")
    PRINCESS = PoetClass.PRINCESS.value, _("princess (姫)")
    MONK = PoetClass.MONK.value, _("monk (坊主)")
    SEMIMARU = PoetClass.SEMIMARU.value, _("Semimaru (蝉丸)")


class Poet(models.Model):
    name = models.CharField(_("name"), max_length=40, unique=True)
    name_kana = models.CharField(_("reading"), max_length=60)
    poet_class = models.CharField(
        _("class"), max_length=10, choices=PoetClassChoices.choices, db_index=True
    )

    class Meta:
        verbose_name = _("poet")
        verbose_name_plural = _("poets")
        ordering = ["poem__number"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_noble(self) -> bool:
        return PoetClass(self.poet_class).is_noble


class Poem(models.Model):
    number = models.PositiveSmallIntegerField(_("number"), unique=True)
    poet = models.OneToOneField(Poet, on_delete=models.PROTECT, verbose_name=_("poet"))
    kami = models.CharField(_("upper verse"), max_length=60)
    shimo = models.CharField(_("lower verse"), max_length=60)
    kami_kana = models.CharField(_("upper verse (kana)"), max_length=60)
    shimo_kana = models.CharField(_("lower verse (kana)"), max_length=60)
    kami_said = models.CharField(_("upper verse (as pronounced)"), max_length=60)
    shimo_said = models.CharField(_("lower verse (as pronounced)"), max_length=60)
    torifuda = models.CharField(_("grabbing card text"), max_length=60)
    kimariji = models.CharField(_("kimariji"), max_length=10)
    kimariji_length = models.PositiveSmallIntegerField(_("kimariji length"), db_index=True)

    class Meta:
        verbose_name = _("poem")
        verbose_name_plural = _("poems")
        ordering = ["number"]

    def __str__(self) -> str:
        return f"{self.number}. {self.kami}"
