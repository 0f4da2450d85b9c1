"""The household certificates (certificates.py): a root that can vouch for this computer
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

from scorekeeper import certificates
from scorekeeper.certificates import Covered

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
    assert len(code.split()) == 4 and all(len(part) == 2 for part in code.split())
    assert (
        status.root.fingerprint(certificates.hashes.SHA256()).hex().upper().startswith(code.replace(" ", ""))
    )


def test_doctor_says_what_they_cover_and_what_to_do(tmp_path):
    assert certificates.describe(None, HOME, NOW)[0]
    status = certificates.ensure(str(tmp_path), HOME, "vm", NOW).status
    ok, text = certificates.describe(status, HOME, NOW)
    assert ok and "vm.local, 192.168.1.20" in text and "397 days left" in text and status.fingerprint in text
    ok, text = certificates.describe(status, Covered(("vm.local",), ("10.0.0.7",)), NOW)
    assert not ok and "10.0.0.7" in text and "restart" in text
    ok, text = certificates.describe(status, HOME, NOW + datetime.timedelta(days=380))
    assert not ok and "issue it again" in text
