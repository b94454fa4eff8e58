"""platform/ is a source root, never a package: the stdlib's platform module must win."""

import importlib
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUR_TOP_LEVEL = ["config", "gamekit", "poems", "pages", "games"]


def test_platform_folder_is_not_a_package():
    assert (ROOT / "platform").is_dir()
    assert not (ROOT / "platform" / "__init__.py").exists()


def test_stdlib_platform_and_uuid_import():
    import platform
    import uuid

    stdlib = Path(sysconfig.get_paths()["stdlib"]).resolve()
    assert Path(platform.__file__).resolve().parent == stdlib
    assert platform.python_version()
    assert uuid.uuid4().version == 4


def test_no_app_shadows_a_stdlib_module():
    platform_apps = [p.name for p in (ROOT / "platform").iterdir() if (p / "__init__.py").exists()]
    assert set(OUR_TOP_LEVEL[:-1]) <= set(platform_apps)
    clashes = {name for name in [*platform_apps, "games"] if name in sys.stdlib_module_names}
    assert clashes == set()


def test_each_app_imports_from_the_source_root():
    for name in OUR_TOP_LEVEL:
        module = importlib.import_module(name)
        assert Path(module.__file__).resolve().is_relative_to(ROOT)
