@deploy_tokens @capability_deploy_tokens
Feature: Deploy tokens cover Git LFS for their repository
  A deploy token is also the password of the LFS API of its repository: with a read-only token git-lfs
  downloads the objects of a clone, and an upload batch is refused (Gitea answers 401 with an
  LFS-Authenticate challenge when the credentials do not allow the operation); a read-write token uploads.

  Background:
    Given a private repository "dev/app"

  @spec @clause_S1_deploy_tokens @capability_lfs
  Scenario: A read-only deploy token downloads LFS objects with the clone
    Given the repository "dev/app" has a read-only deploy token "reader"
    And "dev" pushes a 1 MiB binary "data/model.bin" tracked by LFS to the branch "main" of "dev/app" over HTTPS
    When "dev/app" is cloned over HTTPS with LFS and the deploy token "reader"
    Then the clone succeeds
    And the cloned "data/model.bin" has the same bytes as the pushed one

  @spec @clause_S2_3_deploy_token @capability_lfs
  Scenario: A read-only deploy token cannot upload LFS objects
    Given the repository "dev/app" has a read-only deploy token "reader"
    When an upload batch for "dev/app" is sent with the deploy token "reader"
    Then the LFS request is refused with status 401

  @spec @clause_S5_3 @capability_lfs
  Scenario: A read-write deploy token gets upload actions for LFS objects
    Given the repository "dev/app" has a read-write deploy token "writer"
    When an upload batch for "dev/app" is sent with the deploy token "writer"
    Then the response status is 200
    And the response matches the schema "lfs_batch_response"
    And every object of the LFS batch answer has an upload action
