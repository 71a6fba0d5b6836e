@runs
Feature: Jobs use JavaScript and composite actions kept in repositories of the forge
  As act_runner does against Gitea (DEFAULT_ACTIONS_URL = self), the mock runner resolves
  `uses: owner/repo@ref` and `owner/repo/path@ref` on the forge it is registered with and fetches the
  action over Git smart HTTP with the job's token; `./path` names an action of the checked-out
  workspace. A JavaScript action runs with node: its inputs
  (defaults included) arrive as INPUT_* variables, what it writes to GITHUB_OUTPUT and GITHUB_ENV
  becomes step outputs and environment, its saved state reaches its post step at the end of the job,
  and a value it masks never reaches the log. A composite action runs its steps, nested actions
  included, and maps their outputs to its own. The log the forge stores for the job shows the values.

  Background:
    Given a repository "dev/app"
    And a mock runner registered to "dev/app" with the labels "ubuntu-latest"
    And a repository "dev/greeter"
    And the repository "dev/greeter" has the file "action.yml" with the content
      """
      name: greeter
      inputs:
        who:
          required: true
        greeting:
          default: Hello
      outputs:
        message:
          description: the greeting
      runs:
        using: node20
        main: main.js
        post: post.js
      """
    And the repository "dev/greeter" has the file "main.js" with the content
      """
      const fs = require("fs");
      const env = process.env;
      const message = env.INPUT_GREETING + ", " + env.INPUT_WHO + "!";
      fs.appendFileSync(env.GITHUB_OUTPUT, "message=" + message + "\n");
      fs.appendFileSync(env.GITHUB_ENV, "GREETED=" + env.INPUT_WHO + "\n");
      fs.appendFileSync(env.GITHUB_STATE, "greeted_at=main-of-greeter\n");
      console.log("::add-mask::greeter-token-8531");
      console.log("the greeter token is greeter-token-8531");
      """
    And the repository "dev/greeter" has the file "post.js" with the content
      """
      console.log("greeter post step saw " + process.env.STATE_greeted_at);
      """
    And a repository "dev/tools"
    And the repository "dev/tools" has the file "inner/action.yml" with the content
      """
      inputs:
        word:
          default: unused
      outputs:
        upper:
          value: ${{ steps.up.outputs.value }}
      runs:
        using: composite
        steps:
          - id: up
            shell: bash
            run: echo "value=$(echo '${{ inputs.word }}' | tr a-z A-Z)" >> "$GITHUB_OUTPUT"
      """
    And the repository "dev/tools" has the file "action.yml" naming the scenario's repositories with the content
      """
      inputs:
        name:
          default: world
      outputs:
        shout:
          value: ${{ steps.inner.outputs.upper }}
      runs:
        using: composite
        steps:
          - id: inner
            uses: {dev/tools}/inner@main
            with:
              word: hi ${{ inputs.name }}
      """

  @gitea @slow
  Scenario: A workflow using a JavaScript and a composite action from the forge runs green with their outputs
    Given the repository "dev/app" has the file ".gitea/actions/hello/action.yml" with the content
      """
      inputs:
        name:
          required: true
      outputs:
        said:
          value: ${{ steps.say.outputs.said }}
      runs:
        using: composite
        steps:
          - id: say
            shell: sh
            run: echo "said=hello ${{ inputs.name }} from $(basename '${{ github.action_path }}')" >> "$GITHUB_OUTPUT"
      """
    And the workflow "actions.yml" naming the scenario's repositories is pushed to the repository with
      """
      name: actions
      on: [push]
      jobs:
        use:
          runs-on: ubuntu-latest
          steps:
            - id: greet
              uses: {dev/greeter}@main
              with:
                who: Ada
            - run: echo "greet said ${{ steps.greet.outputs.message }} and GREETED is $GREETED"
            - id: tools
              uses: {dev/tools}@main
            - id: named
              uses: {dev/tools}@main
              with:
                name: Grace
            - run: echo "tools said ${{ steps.tools.outputs.shout }} then ${{ steps.named.outputs.shout }}"
            - uses: actions/checkout@v4
            - id: local
              uses: ./.gitea/actions/hello
              with:
                name: the workspace
            - run: echo "local said ${{ steps.local.outputs.said }}"
      """
    When the mock runner runs one job
    Then the job ends with result "success"
    And the run of "actions.yml" has completed with conclusion "success"
    And the job's log read over REST shows "greet said Hello, Ada! and GREETED is Ada"
    And the job's log read over REST shows "tools said HI WORLD then HI GRACE"
    And the job's log read over REST shows "local said hello the workspace from hello"
    And the job's log read over REST shows "greeter post step saw main-of-greeter"
    And the job's log read over REST shows "the greeter token is ***"
    And the job's log read over REST does not show "greeter-token-8531"

  @gitea @slow
  Scenario: An action path inside a repository of the forge runs on its own
    Given the workflow "inner.yml" naming the scenario's repositories is pushed to the repository with
      """
      name: inner
      on: [push]
      jobs:
        use:
          runs-on: ubuntu-latest
          steps:
            - id: inner
              uses: {dev/tools}/inner@main
              with:
                word: straight in
            - run: echo "inner said ${{ steps.inner.outputs.upper }}"
      """
    When the mock runner runs one job
    Then the job ends with result "success"
    And the job's log read over REST shows "inner said STRAIGHT IN"

  @gitea @slow
  Scenario: A docker action fails its step in host mode and the job with it
    Given the workflow "docker.yml" is pushed to the repository with
      """
      name: docker
      on: [push]
      jobs:
        use:
          runs-on: ubuntu-latest
          steps:
            - uses: docker://alpine:3
            - run: echo "not reached"
      """
    When the mock runner runs one job
    Then the job ends with result "failure"
    And the run of "docker.yml" has completed with conclusion "failure"
    And the job's log read over REST shows "docker actions are not supported in host mode"
    And the job's log read over REST does not show "not reached"
