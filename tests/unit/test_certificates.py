"""The household certificates (web/certificates.py): a root that can vouch for this computer
alone, and a server certificate kept up to date under it. Checked with cryptography's own
verifier (strict, as a phone's), besides the browser test that a phone refuses the rest."""

import datetime
import ipaddress
import os
import plistlib
import stat

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.x509 import verification
from cryptography.x509.oid import ExtendedKeyUsageOID

from scorekeeper.web import certificates
from scorekeeper.web.certificates import Covered

from ..helpers import fingerprint_pairs

NOW = datetime.datetime(2026, 11, 27, 20, 0, tzinfo=datetime.UTC)
HOME = Covered(("vm.local",), ("192.168.1.20",))


def verify(status, subject, when=NOW):
    """The server certificate verified for ``subject`` (a name or an address) against the
    root alone, as a phone that trusts it does; raises when refused."""
    store = verification.Store([status.root])
    try:
        wanted = x509.IPAddress(ipaddress.ip_address(subject))
    except ValueError:
        wanted = x509.DNSName(subject)
    builder = verification.PolicyBuilder().store(store).time(when)
    return builder.build_server_verifier(wanted).verify(status.server, [])


def forged(status, instance, names):
    """A certificate for ``names`` signed with the household root's own key (a stolen key)."""
    folder = certificates.folder_of(instance)
    with open(os.path.join(folder, certificates.ROOT_KEY), "rb") as file:
        key = serialization.load_pem_private_key(file.read(), None)
    certificate, _ = certificates.issue_server(status.root, key, HOME, NOW, names=names)
    return certificates.Status(status.root, certificate, folder)


def test_this_computer_is_its_local_name_and_lan_addresses_not_a_bare_word_nor_loopback():
    covered = Covered.of_machine(
        "vm", ["192.168.1.20"], ["scores.home.arpa", "10.0.0.9", "fd00::2", "localhost"]
    )
    assert covered == Covered(("vm.local", "scores.home.arpa"), ("192.168.1.20", "10.0.0.9"))
    # a name with dots is the family's own domain, kept as it is
    assert Covered.of_machine("den.example.lan", [], []).names == ("den.example.lan", "den.example.lan.local")


def test_the_root_permits_this_computer_alone_and_the_server_certificate_is_for_serving_only(tmp_path):
    made = certificates.ensure(str(tmp_path), HOME, "vm", NOW)
    assert made.new_root and made.new_server and made.why == "there was none"
    root, server = made.status.root, made.status.server
    constraints = root.extensions.get_extension_for_class(x509.NameConstraints)
    assert constraints.critical
    assert set(constraints.value.permitted_subtrees) == {
        x509.DNSName("vm.local"),
        x509.IPAddress(ipaddress.ip_network("192.168.1.20/32")),
        x509.RFC822Name("invalid"),  # no one's email
    }
    assert set(constraints.value.excluded_subtrees) == {x509.IPAddress(ipaddress.ip_network("::/0"))}
    assert root.extensions.get_extension_for_class(x509.BasicConstraints).value.path_length == 0
    usage = server.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(usage) == [ExtendedKeyUsageOID.SERVER_AUTH]
    assert not server.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    lifetime = server.not_valid_after_utc - server.not_valid_before_utc
    assert lifetime <= datetime.timedelta(days=397, hours=1)
    assert made.status.covered == HOME
    verify(made.status, "vm.local")
    verify(made.status, "192.168.1.20")


@pytest.mark.parametrize(
    "names",
    [
        Covered(("example.com",), ()),
        Covered(("router.local",), ()),
        Covered((), ("192.168.1.1",)),  # the router, next door on the same Wi-Fi
        Covered((), ("8.8.8.8",)),
        Covered((), ("fd00::2",)),  # any IPv6 address, this computer's too
    ],
    ids=lambda names: (names.names + names.addresses)[0],
)
def test_a_certificate_the_root_key_signs_for_anything_else_is_refused(tmp_path, names):
    made = certificates.ensure(str(tmp_path), HOME, "vm", NOW)
    stolen = forged(made.status, str(tmp_path), names)
    with pytest.raises(verification.VerificationError):
        verify(stolen, (names.names + names.addresses)[0])


def test_with_no_lan_address_the_root_refuses_every_address(tmp_path):
    made = certificates.ensure(str(tmp_path), Covered(("vm.local",), ()), "vm", NOW)
    constraints = made.status.root.extensions.get_extension_for_class(x509.NameConstraints).value
    assert x509.IPAddress(ipaddress.ip_network("0.0.0.0/0")) in constraints.excluded_subtrees
    with pytest.raises(verification.VerificationError):
        verify(forged(made.status, str(tmp_path), Covered((), ("192.168.1.20",))), "192.168.1.20")


def test_the_keys_and_their_folder_are_the_owners_alone(tmp_path):
    certificates.ensure(str(tmp_path), HOME, "vm", NOW)
    folder = certificates.folder_of(str(tmp_path))
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    for name in os.listdir(folder):
        assert stat.S_IMODE(os.stat(os.path.join(folder, name)).st_mode) == 0o600, name


def test_kept_as_they_are_renewed_before_they_end_and_issued_again_for_new_addresses(tmp_path):
    instance = str(tmp_path)
    first = certificates.ensure(instance, HOME, "vm", NOW).status
    again = certificates.ensure(instance, HOME, "vm", NOW + datetime.timedelta(days=1))
    assert not again.new_root and not again.new_server
    assert again.status.server == first.server

    # 30 days before its end: a new server certificate under the same root (phones stay paired)
    late = NOW + datetime.timedelta(days=certificates.SERVER_DAYS - certificates.RENEW_DAYS + 1)
    renewed = certificates.ensure(instance, HOME, "vm", late)
    assert renewed.new_server and not renewed.new_root
    assert renewed.status.root == first.root
    verify(renewed.status, "vm.local", when=late + datetime.timedelta(days=300))

    # an address gone: issued again without it, under the same root
    fewer = Covered(("vm.local",), ())
    shrunk = certificates.ensure(instance, fewer, "vm", late)
    assert shrunk.new_server and not shrunk.new_root and shrunk.status.covered == fewer

    # a new address the root does not permit: a new root (each phone pairs again), said why
    moved = Covered(("vm.local",), ("10.0.0.7",))
    remade = certificates.ensure(instance, moved, "vm", late)
    assert remade.new_root and remade.why == "this computer's names or addresses changed"
    assert remade.status.root != first.root
    verify(remade.status, "10.0.0.7", when=late)

    asked = certificates.ensure(instance, moved, "vm", late, new_root=True)
    assert asked.new_root and asked.why == "a new one was asked for"


def test_a_phone_installs_the_root_as_der_or_as_a_profile_with_the_same_fingerprint(tmp_path):
    status = certificates.ensure(str(tmp_path), HOME, "vm", NOW).status
    der = certificates.root_der(status)
    assert x509.load_der_x509_certificate(der) == status.root
    profile = plistlib.loads(certificates.mobileconfig(status, "vm"))
    assert profile["PayloadType"] == "Configuration" and profile["PayloadDisplayName"] == "Scorekeeper at vm"
    (payload,) = profile["PayloadContent"]
    assert payload["PayloadType"] == "com.apple.security.root" and payload["PayloadContent"] == der
    code = status.fingerprint
    assert (
        status.root.fingerprint(certificates.hashes.SHA256()).hex().upper().startswith(code.replace(" ", ""))
    )


def test_the_fingerprint_shown_is_128_bits_as_the_phone_shows_them(tmp_path):
    """Four bytes (32 bits) were shown before issue 53: a matching root of one's own cost
    about two days on one core. Sixteen pairs now, as the phone's certificate details
    show the SHA-256 (spaces between pairs, as on an iPhone)."""
    status = certificates.ensure(str(tmp_path), HOME, "vm", NOW).status
    phone = fingerprint_pairs(os.path.join(status.folder, certificates.ROOT_CERT))
    assert len(phone) == 32
    assert status.fingerprint == " ".join(phone[:16])


def test_doctor_says_what_they_cover_and_what_to_do(tmp_path):
    from scorekeeper.cli.doctor import check_https

    assert check_https(None, HOME, NOW)[0]
    status = certificates.ensure(str(tmp_path), HOME, "vm", NOW).status
    ok, text = check_https(status, HOME, NOW)
    assert ok and "vm.local, 192.168.1.20" in text and "397 days left" in text and status.fingerprint in text
    ok, text = check_https(status, Covered(("vm.local",), ("10.0.0.7",)), NOW)
    assert not ok and "10.0.0.7" in text and "restart" in text
    ok, text = check_https(status, HOME, NOW + datetime.timedelta(days=380))
    assert not ok and "issue it again" in text


def test_a_kind_of_name_with_nothing_of_this_computers_permits_nothing(tmp_path):
    """A computer called localhost with no other name (or a one-word name in EXTRA_HOSTS,
    left out as a TLD would be): no DNS name of its own, yet no website's name passes."""
    covered = Covered.of_machine("localhost", ["192.168.1.20"], ["cards", "scores.home.arpa."])
    assert covered.names == ("scores.home.arpa",)
    only_address = Covered((), ("192.168.1.20",))
    made = certificates.ensure(str(tmp_path), only_address, "localhost", NOW)
    verify(made.status, "192.168.1.20")
    for name in ("www.example.com", "bank.cards"):
        with pytest.raises(verification.VerificationError):
            verify(forged(made.status, str(tmp_path), Covered((name,), ())), name)
    # nor anyone's email, and the root is for serving websites alone
    constraints = made.status.root.extensions.get_extension_for_class(x509.NameConstraints).value
    assert x509.RFC822Name("invalid") in constraints.permitted_subtrees
    usage = made.status.root.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(usage) == [ExtendedKeyUsageOID.SERVER_AUTH]
    assert made.status.permitted == only_address  # the placeholder is no name of this computer


def test_nothing_to_cover_is_said_not_signed(tmp_path):
    with pytest.raises(ValueError, match="no name or address"):
        certificates.ensure(str(tmp_path), Covered((), ()), "localhost", NOW)


def test_a_lost_or_broken_server_certificate_or_key_is_issued_again_under_the_same_root(tmp_path):
    instance = str(tmp_path)
    first = certificates.ensure(instance, HOME, "vm", NOW).status
    folder = certificates.folder_of(instance)
    with open(os.path.join(folder, certificates.SERVER_CERT), "w") as file:
        file.write("garbage")
    mended = certificates.ensure(instance, HOME, "vm", NOW)
    assert mended.new_server and not mended.new_root and mended.status.root == first.root
    # a key written and its certificate not (a write cut short): a matching pair again
    other = certificates.ensure(str(tmp_path / "other"), HOME, "vm", NOW)
    with open(
        os.path.join(certificates.folder_of(str(tmp_path / "other")), certificates.SERVER_KEY), "rb"
    ) as src:
        key = src.read()
    with open(os.path.join(folder, certificates.SERVER_KEY), "wb") as file:
        file.write(key)
    again = certificates.ensure(instance, HOME, "vm", NOW)
    assert again.new_server and not again.new_root and again.status.server != other.status.server
    verify(again.status, "vm.local")
    # a root that cannot be read is made again, and said so
    with open(os.path.join(folder, certificates.ROOT_CERT), "w") as file:
        file.write("garbage")
    remade = certificates.ensure(instance, HOME, "vm", NOW)
    assert remade.new_root and remade.why == "the old one could not be read"
