"""The deterministic formers: formation@9's fallback former and the frozen formation@7 control.

The formation@9 former is distillation's fallback: a high-recall extractor over owner-asserted clauses. It
reads each clause for first-person declarative predicates ("I ..."), including those embedded in questions
("..., given that I swim on other days?"), and skips inverted or hypothetical ones ("should I", "if I", "would
I"), so a question about training forms nothing about the user's training. Every candidate cites its whole
clause, an exact substring of the event. A correction forms a retraction only, keyed by running the same rules
over the affirmative reading of the clause. Matching uses lemmas from domain.formation.language; statements
come from domain.formation.rendering.

Its modules: former (the entry points), parsing (one first-person predicate), rules (the claim rules in the
order they are tried: habits, pursuits, identity, preferences, states), clause_first (any first-person
predicate rewritten to the third person when no claim rule reads it, and the coordinated items a rule left
out; its word lists in clause_words, its list splitting in coordination, its verb in the third person in
heads), kinds (the clause-first path's kind classifier, with a safe default), relatives ("my <relative>
..."), belongings ("my <thing> ...": the user's things, places and groups), positions ("As the treasurer of
..., I", "As someone who's been ..., I"),
dropped_subject (a clause whose "I" was left out: "Grew up in Lagos", "Saving up for a house", "Sous chef at a
seafood place"), self_description (a list of verbless fragments, each read as the sentence it stands for: "41,
divorced, one teenage son, work in IT"), attachments (a counted or denied "with" phrase stated on its own: "a
dad with three kids"), answers (a short answer borrows the predicate of the agent's question), requests
(standing instructions to the agent), corrections, possessives (claims with no "I" subject), claims (what a
rule forms), inflection (pasts and participles a rule renders), patterns (shared case-insensitive patterns),
and the word lists topic_words and predicate_words. formation7 is the frozen formation@7 control and shares
none of them.
"""
