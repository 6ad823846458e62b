// A fake of the GitHub REST calls that the CI example's github-script steps make, over a JSON
// state (comments per pull request, issues, artifacts, the pull requests of a commit). Runs a
// script as actions/github-script does (an async function of github, context, core, require)
// and prints the calls made, the outputs set and the state after them.
"use strict";
const fs = require("node:fs");
const [script, statePath] = process.argv.slice(2);
const state = JSON.parse(fs.readFileSync(statePath, "utf8"));
for (const [key, empty] of [["comments", {}], ["issues", []], ["artifacts", []], ["pulls", {}]]) {
  state[key] ??= empty;
}
state.nextId ??= 1000;
const calls = [];
const outputs = {};
const api = (name, answer) => async (args) => {
  calls.push([name, args]);
  return {data: answer(args)};
};
const commentsOf = (number) => (state.comments[number] ??= []);
const issue = (number) => state.issues.find((i) => i.number === number);
const github = {
  paginate: async (method, args) => (await method(args)).data,
  rest: {
    issues: {
      listComments: api("issues.listComments", (a) => commentsOf(a.issue_number)),
      createComment: api("issues.createComment", (a) => {
        const comment = {id: state.nextId++, body: a.body};
        commentsOf(a.issue_number).push(comment);
        return comment;
      }),
      updateComment: api("issues.updateComment", (a) => {
        const all = Object.values(state.comments).flat();
        Object.assign(all.find((c) => c.id === a.comment_id), {body: a.body});
        return {};
      }),
      listForRepo: api("issues.listForRepo", (a) =>
        state.issues.filter((i) => i.state === a.state && (i.labels || []).includes(a.labels))),
      create: api("issues.create", (a) => {
        const created = {number: state.nextId++, state: "open", title: a.title, body: a.body,
          labels: a.labels};
        state.issues.push(created);
        return created;
      }),
      update: api("issues.update", (a) => {
        const {owner, repo, issue_number, ...fields} = a;
        return Object.assign(issue(issue_number), fields);
      }),
    },
    repos: {
      listPullRequestsAssociatedWithCommit: api("repos.listPullRequestsAssociatedWithCommit",
        (a) => state.pulls[a.commit_sha] || []),
    },
    actions: {
      // Newest first, as GitHub lists them.
      listArtifactsForRepo: api("actions.listArtifactsForRepo", (a) => ({
        artifacts: state.artifacts.filter((x) => x.name === a.name).reverse(),
      })),
    },
  },
};
const core = {setOutput: (key, value) => { outputs[key] = String(value); }};
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
new AsyncFunction("github", "context", "core", "require", fs.readFileSync(script, "utf8"))(
  github, state.context, core, require,
).then(() => console.log(JSON.stringify({calls, outputs, state})));
