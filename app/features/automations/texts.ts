// What the Automations screens say (decision 067): the list and an automation's page.
export const AUTOMATION_TEXTS = {
  title: 'Automations',
  description: 'Workflows that act on their own when something happens or on a schedule.',
  newButton: 'New Automation',
  dialogTitle: 'Create Automation Workflow',
  dialogDescription: 'Choose what starts the workflow, what it does and how often.',
  listHeading: 'Workflows',
  searchLabel: 'Search automations',
  noun: 'automations',
  loadFailed: 'Failed to fetch automations',
  empty: 'No automations yet. Create one to act on new leads, accepted quotes or a schedule.',
  noMatch: 'No automations match your search.',
  created: 'Automation workflow created successfully!',
  createFailed: 'Failed to create automation',
} as const;

export const AUTOMATION_DETAIL_TEXTS = {
  back: 'Back to automations',
  notFound: 'Automation not found',
  activated: 'Automation activated',
  paused: 'Automation paused',
  deleted: 'Automation deleted',
  saveFailed: 'Failed to save automation',
  deleteFailed: 'Failed to delete automation',
  deleteTitle: 'Delete automation',
  editTitle: 'Edit automation',
  editDescription: 'Change what starts the workflow, what it does and its conditions.',
  saved: 'Automation saved',
  runQueued: 'Run queued: it starts within a minute',
  runFailed: 'Failed to queue the run',
  // Run now has no event; these two act on the record of the event that started them.
  runNeedsEvent: {
    update_status: 'Run now is not offered for Update Status: it changes the status of the lead whose creation started the run, so it runs only when a lead is created.',
    create_invoice: 'Run now is not offered for Create Invoice: it invoices the quote whose acceptance started the run, so it runs only when a quote is accepted.',
  } as Record<string, string>,
  runsHeading: 'Runs',
  noRuns: 'No runs yet.',
} as const;
