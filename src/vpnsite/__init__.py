"""The domain core of vpnsite: licences, activation codes, signed sign-up requests, rate limits,
the free tier, retention, tickets and fleet status rules.

Nothing here imports a framework, a database driver or an adapter; time and randomness come in
through the ports in :mod:`vpnsite.ports`.
"""
