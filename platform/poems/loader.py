"""Write the catalogue (this project's data files) into the database. Idempotent."""

from poems import catalogue, kimariji


def sync_poems(poet_model, poem_model) -> int:
    """Create or update every poet and poem; takes the models so migrations can pass theirs."""
    for record in catalogue.poems():
        poet, _ = poet_model.objects.update_or_create(
            name=record.poet,
            defaults={"name_kana": record.poet_kana, "poet_class": record.poet_class.value},
        )
        poem_model.objects.update_or_create(
            number=record.number,
            defaults={
                "poet": poet,
                "kami": record.kami,
                "shimo": record.shimo,
                "kami_kana": record.kami_kana,
                "shimo_kana": record.shimo_kana,
                "kami_said": record.kami_said,
                "shimo_said": record.shimo_said,
                "torifuda": record.torifuda,
                "kimariji": kimariji.kimariji_kana(record.number),
                "kimariji_length": kimariji.static_kimariji(record.number),
            },
        )
    return len(catalogue.poems())
