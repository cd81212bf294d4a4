from memwarden.detectors.country_names import COUNTRY_NAMES, generate


def test_the_committed_country_names_are_what_phonenumbers_gives() -> None:
    # regenerate with: python -m memwarden.detectors.country_names
    assert generate() == COUNTRY_NAMES


def test_the_detectors_never_load_phonenumbers_every_locale_names() -> None:
    import subprocess
    import sys

    probe = (
        "import sys, memwarden.detectors.personal as p; p._region_names(); "
        "print('phonenumbers.geodata.locale' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
