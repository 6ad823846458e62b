"""Merge rules as production declares them: an organization's (`MergeRulesStandaloneConfiguration`:
rules or none) and a space's (`MergeRulesSpaceConfiguration`: also inherit). The emulator holds no
change requests, so a rule is kept as written and answered back, never enforced."""

from __future__ import annotations

from docsync.emulator.shapes import Arr, Enum, Obj, OneOf, Str

_USERS_RULES = ("require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass")
_PLAIN_RULES = (
    *("require_at_least_one_review", "require_at_least_one_approved_review"),
    *("require_all_reviews_approved", "require_agent_review", "require_up_to_date_change_request"),
    *("require_change_request_subject", "require_change_request_description"),
    "require_author_to_merge",
)
RULE = OneOf(
    (
        *(
            Obj({"rule": Enum((rule,)), "users": Arr(Str())}, ("rule", "users"))
            for rule in _USERS_RULES
        ),
        Obj({"rule": Enum(_PLAIN_RULES)}, ("rule",)),
        Obj(
            {"rule": Enum(("custom",)), "expression": Str(max_len=1024), "message": Str()},
            ("rule", "expression"),
        ),
    ),
    "a merge rule {rule, ...}",
    tag="rule",
)
_RULES = Obj({"type": Enum(("rules",)), "rules": Arr(RULE)}, ("type", "rules"))
_NONE = Obj({"type": Enum(("none",))}, ("type",))
_INHERIT = Obj({"type": Enum(("inherit",))}, ("type",))
ORGANIZATION = OneOf((_RULES, _NONE), "{type: rules, rules} or {type: none}", tag="type")
SPACE = OneOf(
    (_INHERIT, _RULES, _NONE), "{type: inherit}, {type: rules, rules} or {type: none}", tag="type"
)
