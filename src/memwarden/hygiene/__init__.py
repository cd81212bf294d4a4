"""Memory hygiene: pairs of similar memories found, filtered, adjudicated and routed.

Pure parts (`projects`, `adjudicate`'s offline rules, `routing`) decide; the scans, queue
and runs apply what they decide through the store and the reconciled-write unit.
"""
