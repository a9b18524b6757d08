"""Signing up: ``submit-email`` issues a signed one-time request, ``create-user`` redeems it for a
licence with a fresh activation code."""

from __future__ import annotations

from typing import Literal, Protocol

from attrs import frozen

from vpnsite.archives import ArchiveLinks
from vpnsite.codes import new_activation_code
from vpnsite.emails import address_to_mail, mailbox_key
from vpnsite.errors import DomainError, FreeTierFull, InvalidSignature, RequestAlreadyUsed, RequestExpired
from vpnsite.identifiers import new_id
from vpnsite.keyed_hashes import Keyring
from vpnsite.licences import Licence, licence_term
from vpnsite.notifications import Activation, Notifications
from vpnsite.plans import Plan
from vpnsite.ports import Clock, RandomSource, UnitOfWork
from vpnsite.proof_of_work import FREE, ProofOfWork
from vpnsite.rate_limits import CREATE_USER, LICENCE_EMAILS, SUBMIT_EMAIL, Limiter, Subject
from vpnsite.signup_requests import (
    REQUEST_TTL,
    SUBSCRIPTION_FREE,
    FormData,
    SignedForm,
    SignupRequest,
    sign,
    signature_matches,
)

Redemption = Literal["redeemed", "already_used", "code_taken"]


class SignupStore(Protocol):
    def redeem(self, request_id: str, licence: Licence, ip: str | None) -> Redemption:
        """Store the licence with the request's id, which may be taken once.

        Nothing is written unless all of it is; ``already_used`` says a licence has the request's
        id, ``code_taken`` that the code hash already belongs to another licence.
        """
        ...

    def was_redeemed(self, request_id: str) -> bool: ...


class NotRedeemed(Exception):
    """A sign-up's signed request was made, but redeeming it was refused (``refusal`` says why);
    ``signed`` is the request, for the visitor to try again with."""

    def __init__(self, signed: SignedForm, refusal: DomainError) -> None:
        super().__init__(refusal.code)
        self.signed = signed
        self.refusal = refusal


@frozen
class Signups:
    store: SignupStore
    limiter: Limiter
    keys: Keyring
    links: ArchiveLinks
    clock: Clock
    random: RandomSource
    plan: Plan
    notifications: Notifications
    unit_of_work: UnitOfWork
    # None: no sign-up is ever asked for one (VPNSITE_SIGNUP_CHALLENGE=off).
    proof_of_work: ProofOfWork | None = None

    def submit_email(
        self,
        email: str,
        ip: str | None,
        visitor_id: str | None,
        language: str = "en",
        solution: str | None = None,
        solvable: bool = True,
    ) -> SignedForm:
        """``visitor_id``: the random identifier the visitor's browser keeps (the ``hz_id`` cookie).
        ``solution``: the visitor's solution of a challenge, when one was asked for; ``solvable``:
        whether the visitor can solve one at all (see :meth:`ProofOfWork.check`)."""
        address = address_to_mail(email)
        now = self.clock.now()
        # Before the rate limits: a challenge costs the store nothing to ask for, and a visitor who
        # is asked for one is not counted twice for a sign-up it then makes.
        owed = FREE if self.proof_of_work is None else self.proof_of_work.check(solution, solvable, now)
        self.limiter.admit(
            SUBMIT_EMAIL, {"ip": ip, "visitor": visitor_id, "email": mailbox_key(address)}, now
        )
        if self.proof_of_work is not None:
            self.proof_of_work.record(owed, now)
        if not self.plan.admits(self.plan.count_users()):
            raise FreeTierFull(cap=self.plan.cap)
        request = SignupRequest(new_id(self.random), now + REQUEST_TTL, language)
        form = FormData(
            user_email=address,
            user_days=self.plan.term_days,
            subscription=SUBSCRIPTION_FREE,
            user_comment="",
            request_id=request.id,
        )
        return SignedForm(form, sign(form, self.keys.current.signup))

    def sign_up(
        self, request: str | SignedForm, ip: str | None, visitor_id: str | None, language: str = "en"
    ) -> Activation:
        """Sign up in one step, as a page without a script does: an e-mail is submitted and its
        signed request redeemed at once (a signed request given, the "try again" of a refused
        one, is redeemed). A refusal of the e-mail is raised as it is; one of the redemption as
        :class:`NotRedeemed`. Such a page cannot solve a challenge: under pressure it shares the
        allowance of unchallenged sign-ups (:class:`~vpnsite.errors.SignupsBusy` beyond it)."""
        signed = (
            request
            if isinstance(request, SignedForm)
            else self.submit_email(request, ip, visitor_id, language, solvable=False)
        )
        try:
            return self.create_user(signed, ip, visitor_id)
        except DomainError as refusal:
            raise NotRedeemed(signed, refusal) from refusal

    def create_user(self, signed: SignedForm, ip: str | None, visitor_id: str | None = None) -> Activation:
        now = self.clock.now()
        mailbox: dict[Subject, str | None] = {"email": mailbox_key(signed.form.user_email)}
        self.limiter.admit(CREATE_USER, {"ip": ip, "visitor": visitor_id, **mailbox}, now)
        if not any(signature_matches(signed.form, signed.sig, keys.signup) for keys in self.keys.read().sets):
            raise InvalidSignature()
        request = SignupRequest.parse(signed.form.request_id)
        if request is None:
            raise RequestExpired()
        if request.has_expired(now):
            if self.store.was_redeemed(request.id):
                raise RequestAlreadyUsed()
            raise RequestExpired()
        starts_at, ends_at = licence_term(now, signed.form.user_days)
        # Our own server's exit address says nothing about who signed up, only that they use us.
        signed_up_from = ip if self.limiter.server_of_exit(ip) is None else None
        while True:
            code = new_activation_code(self.random)
            keys = self.keys.current
            licence = Licence(
                id=new_id(self.random),
                email=signed.form.user_email,
                code_hash=keys.codes.hash(code),
                starts_at=starts_at,
                ends_at=ends_at,
                language=request.language,
                code_key=keys.id,
            )
            with self.unit_of_work.atomic():
                outcome = self.store.redeem(request.id, licence, signed_up_from)
                if outcome == "redeemed":
                    # Decided with the licence, in its unit of work: the day's e-mail is counted
                    # only if its licence is kept.
                    emailed = self.limiter.admits_one_more(LICENCE_EMAILS, mailbox, now)
                    activation = Activation(licence, code, self.links.mint(licence.id, now), emailed)
                    if emailed:
                        # The visitor's only copy of the code if the answer never reaches them.
                        self.notifications.licence_issued(activation)
                    return activation
            if outcome == "already_used":
                raise RequestAlreadyUsed()
