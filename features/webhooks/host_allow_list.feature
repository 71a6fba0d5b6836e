@webhooks
Feature: Webhooks deliver only to allowed hosts, and subscribe only to known events
  A webhook makes the forge send a request wherever its URL says: to a cloud's metadata service, a
  private network or the forge's own machine unless the forge refuses. Gitea follows [webhook]
  ALLOWED_HOST_LIST (default "external": no loopback, private, link-local or unspecified address) and
  checks it when it delivers; the reference checks it also when the hook is created or changed, so a
  hook that could never deliver is refused with 422 at once, with every numeric form of an address
  (decimal, IPv4-mapped IPv6) and the special-use names (localhost, *.internal) judged as what they
  name. That early refusal is the reference's choice (tagged reference); Gitea accepts the hook and
  refuses each delivery. An unknown event name is refused too, where Gitea silently ignores it.
  Against a live forge, the harness's receiver must be allowed explicitly (README, "Webhooks").

  Background:
    Given a repository "dev/app"

  @reference
  Scenario Outline: A hook to a local or internal address is refused: <url>
    When "dev" creates a webhook on "dev/app" with the body
      """
      {"type": "gitea", "config": {"url": "<url>", "content_type": "json"}, "events": ["push"], "active": true}
      """
    Then the request is refused with status 422
    And the error message mentions "Invalid url"

    Examples:
      | url                                            |
      | http://169.254.169.254/latest/meta-data/       |
      | http://10.0.0.1/hook                           |
      | http://192.168.1.1/hook                        |
      | http://[fd00::1]/hook                          |
      | http://0.0.0.0/hook                            |
      | http://2130706433/hook                         |
      | http://[::ffff:127.0.0.1]/hook                 |
      | http://metadata.google.internal/computeMetadata |
      | http://localhost/hook                          |
      | http://127.0.0.1:3000/hook                     |

  @reference
  Scenario: A hook cannot be moved to a local address
    Given "dev" has a webhook on "dev/app" for the events "push" with the secret "s3cret"
    When "dev" edits the webhook with the body
      """
      {"config": {"url": "http://169.254.169.254/latest/meta-data/", "content_type": "json"}}
      """
    Then the request is refused with status 422

  @reference
  Scenario: An unknown event name is refused rather than stored
    When "dev" creates a webhook on "dev/app" with the body
      """
      {"type": "gitea", "config": {"url": "{receiver}", "content_type": "json"}, "events": ["push", "pushh"]}
      """
    Then the request is refused with status 422
    And the error message mentions "pushh"

  @gitea
  Scenario: A webhook never delivers to the forge's own loopback address
    A listener on 127.0.0.1 (the canary) stands for the services of the forge's machine. Gitea accepts
    the hook and refuses each delivery (services/webhook: hostmatcher dial control, "webhook can only
    call allowed HTTP servers"); the reference refuses the hook itself. Either way nothing reaches the
    canary. The scenario finds the hole on a forge that runs on the harness's machine.
    When "dev" creates a webhook on "dev/app" to the loopback canary
    Then the webhook on "dev/app" is refused, or its test delivery never reaches the canary

  @reference @reference_only
  Scenario: A host name is judged again where it resolves, on every delivery
    A name passes when the hook is stored (no DNS is asked then); each delivery resolves it and
    connects only to allowed addresses, so a name that resolves (or was re-pointed, as in DNS
    rebinding) to the forge's own machine is never contacted. The reference's test hook makes the name
    resolve to 127.0.0.1 for the server only.
    Given the reference resolves the name "rebind" to the loopback canary's address
    When "dev" creates a webhook on "dev/app" to the loopback canary through the name "rebind"
    Then the webhook on "dev/app" is accepted, and its test delivery never reaches the canary

  @reference
  Scenario: An event name holding a lone surrogate is refused, not stored
    The surrogate becomes U+FFFD when the body is decoded (as Go decodes it), and no event has that
    name: the hook keeps its events and every later read of it works.
    Given "dev" has a webhook on "dev/app" for the events "push" with the secret "s3cret"
    When "dev" edits the webhook with the body
      """
      {"events": ["x\udc00y"]}
      """
    Then the request is refused with status 422
