from config.settings_test import *  # noqa: F403

ROOT_URLCONF = "tests.browser.telemetry_site"

# The test page wires its buttons in an inline module script: let that one script in by
# its nonce (the site's own pages need no inline script, so their policy has none).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        **CONTENT_SECURITY_POLICY["DIRECTIVES"],  # noqa: F405
        "script-src": [SELF, NONCE],  # noqa: F405
    }
}
