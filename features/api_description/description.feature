@api_description
Feature: The server tells its version and describes its API
  GET /api/v1/version answers {"version"} without credentials. The API description is served as
  JSON at /swagger.v1.json (Swagger 2.0, basePath /<suburl>/api/v1) and as OpenAPI 3 at
  /openapi3.v1.json.

  @gitea
  Scenario: The version is public
    When an anonymous client fetches the server version
    Then the response status is 200
    And the response field "version" is a non-empty text

  @spec @clause_S4_2_1 @clause_S9_1
  Scenario: The description's basePath is the API prefix under the deployment's sub-path
    When an anonymous client fetches the Swagger description
    Then the response status is 200
    And the response is JSON
    And the response matches the schema "swagger"
    And the description's basePath is the target's API path

  @spec @clause_S9_2
  Scenario: The description's info.version carries the application version
    When an anonymous client fetches the Swagger description
    Then the response status is 200
    And the description's info.version is "0.0.0+" followed by the server version

  @spec @clause_S9_2
  Scenario: An OpenAPI 3 variant of the description is served
    When an anonymous client fetches the OpenAPI 3 description
    Then the response status is 200
    And the response is JSON
    And the response matches the schema "openapi3"
    And the description's first server URL ends with the target's API path

  @gitea
  Scenario: The description documents the version operation
    When an anonymous client fetches the Swagger description
    Then the response status is 200
    And the description documents the operation "GET /version"

  @spec @clause_S1_tags
  Scenario: Every operation is grouped under one of the tags of the specification
    When an anonymous client fetches the Swagger description
    Then the response status is 200
    And every operation of the description is tagged with one of "admin, issue, miscellaneous, notification, organization, package, repository, settings, user"
