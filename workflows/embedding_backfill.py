"""EmbeddingBackfillWorkflow: started by the Temporal Schedule "memory-embedding-backfill".

    loop:
      embed_page(cursor, 256) ──▶ EmbedPageResult (counts and a cursor, no content)
      fewer than a page read?  ──▶ return the totals
      many pages run?          ──▶ continue-as-new with the cursor and the totals

Beliefs are committed without a vector (an embedding never blocks or fails a commit) and recallable by
their words at once; this walk gives them one, by primary key, with the model the worker is configured
with (a belief carrying another model's vector is embedded again). Running it twice at once is harmless:
a vector is stored only where the belief still says what was embedded.
"""

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, PositiveInt
from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from uuid import UUID

    from activities.embedding import EmbeddingActivities, EmbedPageInput
    from domain.beliefs.embedding import EMBED_PAGE
    from workflows.policies import EMBED_PAGE_START_TO_CLOSE, INFRASTRUCTURE_RETRY

# 3 activity events a page and a workflow task triple: far below Temporal's 10,240-event warning.
MAX_PAGES_PER_RUN = 500


class BackfillInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    after: UUID | None = None
    page_size: int = Field(default=EMBED_PAGE, ge=1, le=2_048)
    pages_per_run: PositiveInt = MAX_PAGES_PER_RUN
    pages_before: NonNegativeInt = 0
    stored_before: NonNegativeInt = 0


class BackfillSummary(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    pages: NonNegativeInt
    stored: NonNegativeInt


@workflow.defn(name="EmbeddingBackfill")
class EmbeddingBackfillWorkflow:
    @workflow.run
    async def run(self, params: BackfillInput) -> BackfillSummary:
        after, pages, stored = params.after, params.pages_before, params.stored_before
        for _ in range(params.pages_per_run):
            page = await workflow.execute_activity_method(
                EmbeddingActivities.embed_page,
                EmbedPageInput(after=after, limit=params.page_size),
                start_to_close_timeout=EMBED_PAGE_START_TO_CLOSE,
                retry_policy=INFRASTRUCTURE_RETRY,
            )
            pages, stored, after = pages + 1, stored + page.stored, page.next_after
            if page.done:
                return BackfillSummary(pages=pages, stored=stored)
        workflow.continue_as_new(
            BackfillInput(
                after=after,
                page_size=params.page_size,
                pages_per_run=params.pages_per_run,
                pages_before=pages,
                stored_before=stored,
            )
        )


__all__ = ["BackfillInput", "BackfillSummary", "EmbeddingBackfillWorkflow"]
