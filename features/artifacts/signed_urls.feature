@artifacts
Feature: Signed artifact URLs are valid for one hour and any change invalidates them
  The signature covers every parameter of the URL, the artifact id and the expiry included, so a
  URL cannot be edited into another valid one. The reference signs with HMAC-SHA256 keyed by the
  instance secret, over the purpose and every other query parameter, each length-prefixed,
  encoded as unpadded base64url (43 characters) and compared in constant time; expires is a Unix
  time one hour ahead.

  Background:
    Given a mock runner has taken a job of a new repository
    And the job has uploaded the artifact "signed" containing "signed content"
    And the job has uploaded the artifact "neighbour" containing "other content"

  @spec @clause_S5_2 @clause_S7_signed_url_401
  Scenario Outline: A signed download URL that was changed is refused with 401
    When the signed URL of "signed" is fetched with <tampering>
    Then the download answers 401

    Examples:
      | tampering                                  |
      | a tampered signature                       |
      | a truncated signature                      |
      | a padded signature                         |
      | no signature                               |
      | a changed expiry                           |
      | the artifact id of "neighbour"             |

  @spec @clause_S5_2 @clause_S7_signed_url_401
  Scenario Outline: A signed REST zip URL that was changed is refused with 401
    When the raw zip URL of "signed" is fetched with <tampering>
    Then the download answers 401

    Examples:
      | tampering                                  |
      | a tampered signature                       |
      | a truncated signature                      |
      | a padded signature                         |
      | a changed expiry                           |
      | the artifact id of "neighbour"             |

  @reference @clause_S5_6 @clause_S8_signed_url_lifetime
  Scenario: The signature is unpadded base64url of an HMAC-SHA256 and the expiry is one hour ahead
    When the job calls GetSignedArtifactURL for "signed"
    Then the signed URL carries a 43-character unpadded base64url signature
    And the signed URL expires one hour from now

  @reference_only @reference @destructive @clause_S5_2 @clause_S8_signed_url_lifetime @clause_S7_signed_url_401
  Scenario: A signed download URL works until its hour is over and is refused with 401 after
    The reference's clock is moved through its test hook; no other target offers that control. The
    clock is the whole instance's, so the scenario is @destructive (a live reference server shared
    with other runs moves it only with --allow-destructive).
    Given the job has obtained the signed URL of "signed"
    When the reference clock moves forward by 3590 seconds
    And the obtained signed URL is fetched without credentials
    Then the download answers 200
    When the reference clock moves forward by 20 seconds
    And the obtained signed URL is fetched without credentials
    Then the download answers 401

  @reference_only @reference @destructive @clause_S8_signed_url_lifetime @clause_S7_signed_url_401
  Scenario: A signed REST zip URL is refused with 401 after one hour
    Given the repository's owner has obtained the raw zip URL of "signed"
    When the reference clock moves forward by 3610 seconds
    And the obtained raw zip URL is fetched without credentials
    Then the download answers 401
