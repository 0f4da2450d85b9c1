"""https at home: a household certificate authority that can vouch for this computer only,
and the server certificate under it (docs/HTTPS.md).

A phone trusts the household root once (the ``/trust`` page). The root carries critical
X.509 Name Constraints: it permits this computer's names (``<host name>.local``, and the
names in ``EXTRA_HOSTS``) and its LAN addresses (IPv4, each a /32), and nothing else: no
IPv6 address, no other IPv4 address, no other name but those under its own (RFC 5280: a
constraint "vm.local" permits "x.vm.local" too, a name only this household's network
could answer for; a bare one-word host name is left out, as "dev" would permit every
".dev" website). Its key, if stolen, vouches for this computer and no website or other
device; a certificate for ``example.com`` under it is refused by the phone itself.

The server certificate names the same names and addresses, for server authentication
only, valid ``SERVER_DAYS``; ``ensure`` issues it again ``RENEW_DAYS`` before it runs out
and when the computer's names or addresses change. An address the root does not permit
cannot be added to it: ``ensure`` then makes a new root, and every phone pairs again (its
old root now vouches for nothing it is shown). Everything lives in ``instance/https/``,
owner-only; the keys never leave it.
"""

import dataclasses
import datetime
import hashlib
import inspect
import ipaddress
import os
import plistlib
import socket
import uuid

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from ..scoring.language import N_, _
from ..storage.private import private_folder, write_whole
from .network import lan_addresses

FOLDER = "https"
ROOT_CERT, ROOT_KEY = "household-root.pem", "household-root.key"
SERVER_CERT, SERVER_KEY = "server.pem", "server.key"
#: the longest a server certificate is valid (what Apple's devices accept of a TLS certificate)
SERVER_DAYS = 397
#: a server certificate is issued again when fewer days than this are left
RENEW_DAYS = 30
#: the household root: trusted once, for years (a phone is not asked again before then)
ROOT_DAYS = 10 * 365
#: every IPv6 address, excluded: the root vouches for this computer's IPv4 LAN addresses only
ALL_IPV6 = ipaddress.ip_network("::/0")
ALL_IPV4 = ipaddress.ip_network("0.0.0.0/0")
LOOPBACK = ("localhost", "127.0.0.1", "::1")
#: the one name permitted where none of a kind is (RFC 2606: reserved, never anyone's)
NOWHERE = "invalid"


@dataclasses.dataclass(frozen=True)
class Covered:
    """What the certificates vouch for: this computer's names and its IPv4 addresses."""

    names: tuple[str, ...]
    addresses: tuple[str, ...]

    @classmethod
    def of_machine(cls, hostname, lan_addresses, extra=()):
        """This computer's names (``hostname``, ``hostname.local``, and the names among
        ``extra``) and addresses (``lan_addresses`` and the IPv4 ones among ``extra``);
        loopback and IPv6 left out: the computer is a secure place to itself already, and
        the root refuses IPv6."""
        names, addresses = [], list(lan_addresses)
        if hostname and hostname.lower() not in LOOPBACK:
            # a bare one-word name is left out: a phone cannot look it up, and as a name
            # constraint it would permit every name under it ("dev" every ".dev" website)
            names += [hostname] if "." in hostname else []
            names.append(f"{hostname}.local")
        for host in extra:
            try:
                address = ipaddress.ip_address(host)
            except ValueError:
                # a one-word name is left out, as the host name is (it would permit a TLD)
                if host and host.lower() not in LOOPBACK and "." in host.strip("."):
                    names.append(host)
                continue
            if address.version == 4 and not address.is_loopback:
                addresses.append(str(address))
        names = tuple(dict.fromkeys(name.lower().rstrip(".") for name in names))
        return cls(names, tuple(dict.fromkeys(addresses)))

    @property
    def hosts(self):
        """The names, then the addresses: every host a phone may open this at."""
        return self.names + self.addresses

    def within(self, other):
        """Whether everything this covers, ``other`` covers too."""
        return set(self.names) <= set(other.names) and set(self.addresses) <= set(other.addresses)

    def union(self, other):
        """What this and ``other`` cover, this one's first, without repeats."""
        return Covered(
            tuple(dict.fromkeys(self.names + other.names)),
            tuple(dict.fromkeys(self.addresses + other.addresses)),
        )


def covered_by(certificate):
    """The names and addresses a server certificate names (its subject alternative names)."""
    sans = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return Covered(
        tuple(sans.get_values_for_type(x509.DNSName)),
        tuple(str(ip) for ip in sans.get_values_for_type(x509.IPAddress)),
    )


@dataclasses.dataclass(frozen=True)
class Status:
    """The certificates as they are on disk: what ``doctor``, ``make run`` and ``/trust`` say."""

    root: x509.Certificate
    server: x509.Certificate
    folder: str

    @property
    def fingerprint(self):
        return fingerprint_code(self.root)

    @property
    def permitted(self):
        """What the root's name constraints permit (a ``Covered``), or None without them."""
        return permitted_by(self.root)

    @property
    def covered(self):
        """What the server certificate names."""
        return covered_by(self.server)

    def days_left(self, now):
        return (self.server.not_valid_after_utc - now).days

    @property
    def server_cert_path(self):
        return os.path.join(self.folder, SERVER_CERT)

    @property
    def server_key_path(self):
        return os.path.join(self.folder, SERVER_KEY)


@dataclasses.dataclass(frozen=True)
class Made:
    """What ``ensure`` did: the status after it, and whether the root or the server
    certificate is new (a new root: every phone pairs again)."""

    status: Status
    new_root: bool
    new_server: bool
    why: str = ""  # in English (marked N_: translated where it is said)


def this_computer(extra=()):
    """This computer's names and addresses now, as the certificates must cover them."""
    return Covered.of_machine(socket.gethostname(), lan_addresses(), extra)


def folder_of(instance_path):
    return os.path.join(instance_path, FOLDER)


def fingerprint_code(certificate):
    """The first 16 bytes (128 bits) of the certificate's SHA-256 fingerprint, as an iPhone
    shows them ("7F 3A 19 C2 8B 01 …"; Android with colons): printed by ``make run`` and shown
    on ``/trust``, where the family compares them with the phone's. A root of one's own that
    matched the 4 bytes shown before issue 53 took two days on one core; 16 are out of reach."""
    digest = certificate.fingerprint(hashes.SHA256())
    return " ".join(f"{byte:02X}" for byte in digest[:16])


def permitted_by(root):
    """The names and addresses a root's name constraints permit (None without any)."""
    try:
        constraints = root.extensions.get_extension_for_class(x509.NameConstraints).value
    except x509.ExtensionNotFound:
        return None
    subtrees = constraints.permitted_subtrees or ()
    names = tuple(
        entry.value for entry in subtrees if isinstance(entry, x509.DNSName) and entry.value != NOWHERE
    )
    addresses = tuple(
        str(entry.value.network_address)
        for entry in subtrees
        if isinstance(entry, x509.IPAddress) and entry.value.prefixlen == entry.value.max_prefixlen
    )
    return Covered(names, addresses)


def constraints_for(covered):
    """The root's name constraints: exactly ``covered``'s names and addresses."""
    # a kind of name with nothing permitted would be unconstrained (RFC 5280): each kind a
    # root could vouch for gets at least a name of the reserved ".invalid", which no one has
    permitted = [x509.DNSName(name) for name in covered.names or (NOWHERE,)]
    permitted += [x509.IPAddress(ipaddress.ip_network(f"{address}/32")) for address in covered.addresses]
    permitted.append(x509.RFC822Name(NOWHERE))  # no one's email
    excluded = [x509.IPAddress(ALL_IPV6)]
    if not covered.addresses:  # no IP subtree permitted would leave every address open
        excluded.append(x509.IPAddress(ALL_IPV4))
    return x509.NameConstraints(permitted_subtrees=permitted or None, excluded_subtrees=excluded)


def _name(common_name):
    return x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Scorekeeper"),
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
        ]
    )


def _key_usage(*allowed):
    """A key usage extension allowing ``allowed`` (its field names) and nothing else."""
    fields = inspect.signature(x509.KeyUsage).parameters  # its nine flags, by name
    return x509.KeyUsage(**{name: name in allowed for name in fields})


def make_root(covered, hostname, now):
    """A new household root for ``covered``: (certificate, key)."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = _name(f"Scorekeeper household root ({hostname or 'this computer'})")
    root = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=ROOT_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_key_usage("key_cert_sign", "crl_sign"), critical=True)
        .add_extension(constraints_for(covered), critical=True)
        # for websites alone: not for email, nor code signing, whatever a stolen key signs
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    return root, key


def issue_server(root, root_key, covered, now, names=None):
    """A server certificate under ``root`` for ``covered`` (or ``names``, a ``Covered``
    the tests use to ask for one the root must not vouch for): (certificate, key)."""
    names = names or covered
    if not names.names and not names.addresses:
        raise ValueError("this computer has no name or address a phone could open it at")
    key = ec.generate_private_key(ec.SECP256R1())
    alternatives = [x509.DNSName(name) for name in names.names]
    alternatives += [x509.IPAddress(ipaddress.ip_address(address)) for address in names.addresses]
    certificate = (
        x509.CertificateBuilder()
        .subject_name(_name((names.names or names.addresses)[0]))
        .issuer_name(root.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=SERVER_DAYS))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_key_usage("digital_signature"), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(root.public_key()), critical=False)
        .sign(root_key, hashes.SHA256())
    )
    return certificate, key


def _pem(certificate):
    return certificate.public_bytes(serialization.Encoding.PEM)


def _key_pem(key):
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _write(path, data):
    """Owner-only, whole and synced: a reader sees old or new, and so does the next start
    after a power cut (``private.write_whole``)."""
    write_whole(path, data)


def load(instance_path):
    """The certificates on disk as a ``Status``, or None when there are none yet (or
    they cannot be read: ``ensure`` makes them again)."""
    folder = folder_of(instance_path)
    root, server = _read(folder, ROOT_CERT), _read(folder, SERVER_CERT)
    return Status(root, server, folder) if root and server else None


def _read(folder, name):
    """The first certificate in a PEM file, or None (missing, unreadable, not PEM)."""
    try:
        with open(os.path.join(folder, name), "rb") as file:
            return x509.load_pem_x509_certificates(file.read())[0]
    except (OSError, ValueError, IndexError):
        return None


def _read_key(folder, name):
    try:
        with open(os.path.join(folder, name), "rb") as file:
            return serialization.load_pem_private_key(file.read(), password=None)
    except (OSError, ValueError, TypeError):
        return None


def ensure(instance_path, covered, hostname, now=None, new_root=False):
    """Make the certificates that are missing, out of date or short of ``covered``; a
    ``Made``. A root that permits all of ``covered`` is kept (the phones keep trusting
    it); otherwise, or with ``new_root``, a new root is made. The root and the server
    certificate are read apart: a lost server certificate or key is issued again, under
    the same root."""
    now = now or datetime.datetime.now(datetime.UTC)
    folder = folder_of(instance_path)
    private_folder(folder)
    root, root_key = _read(folder, ROOT_CERT), _read_key(folder, ROOT_KEY)
    server, server_key = _read(folder, SERVER_CERT), _read_key(folder, SERVER_KEY)
    why = ""
    if root is None and root_key is None and not os.path.exists(os.path.join(folder, ROOT_CERT)):
        why = N_("there was none")
    elif root is None or root_key is None:
        why = N_("the old one could not be read")
    elif new_root:
        why = N_("a new one was asked for")
    elif root.not_valid_after_utc - now < datetime.timedelta(days=SERVER_DAYS):
        why = N_("the old one was running out")
    elif root.public_key() != root_key.public_key():
        why = N_("its key did not match")
    else:
        permitted = permitted_by(root)
        if permitted is None or not covered.within(permitted):
            why = N_("this computer's names or addresses changed")
    made_root = bool(why)
    if made_root:
        root, root_key = make_root(covered, hostname, now)
        _write(os.path.join(folder, ROOT_KEY), _key_pem(root_key))
        _write(os.path.join(folder, ROOT_CERT), _pem(root))
    renew = (
        made_root
        or server is None
        or server_key is None
        or server_key.public_key() != server.public_key()  # a write cut short between the two
        or server.issuer != root.subject
        or server.not_valid_after_utc - now < datetime.timedelta(days=RENEW_DAYS)
        or set(covered_by(server).hosts) != set(covered.hosts)
    )
    if renew:
        server, key = issue_server(root, root_key, covered, now)
        _write(os.path.join(folder, SERVER_KEY), _key_pem(key))
        # the chain a phone is sent: the server's certificate, then the root's
        _write(os.path.join(folder, SERVER_CERT), _pem(server) + _pem(root))
    return Made(load(instance_path), made_root, renew, why)


def root_der(status):
    """The household root as DER: the form Android and computers install."""
    return status.root.public_bytes(serialization.Encoding.DER)


def mobileconfig(status, hostname):
    """The household root as an Apple configuration profile: the form an iPhone or iPad
    installs (Settings › Profile Downloaded › Install; then full trust is turned on under
    General › About › Certificate Trust Settings). Unsigned: the phone says "Not Signed",
    and the fingerprint on the page is what shows it is the family's."""
    digest = hashlib.sha256(root_der(status)).hexdigest()
    name = _("Scorekeeper at %(host)s", host=hostname) if hostname else _("Scorekeeper at home")
    payload = {
        "PayloadType": "com.apple.security.root",
        "PayloadVersion": 1,
        "PayloadIdentifier": f"scorekeeper.household.root.{digest[:16]}",
        "PayloadUUID": str(uuid.uuid5(uuid.NAMESPACE_URL, f"scorekeeper:root:{digest}")).upper(),
        "PayloadDisplayName": _("Scorekeeper household root"),
        "PayloadCertificateFileName": "scorekeeper-household.cer",
        "PayloadContent": root_der(status),
    }
    profile = {
        "PayloadType": "Configuration",
        "PayloadVersion": 1,
        "PayloadIdentifier": f"scorekeeper.household.{digest[:16]}",
        "PayloadUUID": str(uuid.uuid5(uuid.NAMESPACE_URL, f"scorekeeper:profile:{digest}")).upper(),
        "PayloadDisplayName": name,
        "PayloadDescription": _(
            "Lets this phone open Scorekeeper over https at home. The certificate can vouch "
            "for this one computer only."
        ),
        "PayloadOrganization": "Scorekeeper",
        "PayloadRemovalDisallowed": False,
        "PayloadContent": [payload],
    }
    return plistlib.dumps(profile)
