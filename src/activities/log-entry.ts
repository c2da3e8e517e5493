import { randomUUID } from 'node:crypto';

export type TaskStatus = 'completed' | 'failed';

export interface TaskError {
  name: string;
  message: string;
}

export interface Task {
  taskId: string;
  dataspaceAppId: string;
  status: TaskStatus;
  startDate: string;
  endDate: string;
  result: number;
  error?: TaskError;
}

/** The activity-log entry (spec 2.8): the inbox's answer and GET /activity-logs/{id}. */
export interface ActivityLogEntry {
  id: string;
  status: TaskStatus;
  generator: string;
  dateCreated: string;
  tasks: Task[];
}

export function task(appId: string, started: Date, outcome: { result: number } | { error: TaskError }): Task {
  const base = {
    taskId: `urn:uuid:${randomUUID()}`,
    dataspaceAppId: appId,
    startDate: started.toISOString(),
    endDate: new Date().toISOString(),
  };
  return 'error' in outcome
    ? { ...base, status: 'failed', result: 0, error: outcome.error }
    : { ...base, status: 'completed', result: outcome.result };
}

export function entry(id: string, generator: string, created: Date, tasks: Task[]): ActivityLogEntry {
  return {
    id,
    status: tasks.every((t) => t.status === 'completed') ? 'completed' : 'failed',
    generator,
    dateCreated: created.toISOString(),
    tasks,
  };
}
