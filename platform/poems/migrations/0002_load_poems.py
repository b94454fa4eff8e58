from django.db import migrations


def load(apps, schema_editor):
    from poems.loader import sync_poems

    sync_poems(apps.get_model("poems", "Poet"), apps.get_model("poems", "Poem"))


class Migration(migrations.Migration):
    dependencies = [("poems", "0001_initial")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
