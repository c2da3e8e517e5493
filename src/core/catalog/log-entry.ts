import { randomUUID } from 'node:crypto';
import { stamp } from '../rdf/date-times.js';

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
  /**
   * Not in spec 2.8: forms the node accepted and normalised, or a sent value it did not use; each names
   * the field, the value sent and what was stored. Present only when there is something to tell.
   */
  warnings?: LogWarning[];
}

export interface LogWarning {
  path: string;
  message: string;
  value: string;
}

export function task(appId: string, started: Date, ended: Date, outcome: { result: number } | { error: TaskError }): Task {
  const base = {
    taskId: `urn:uuid:${randomUUID()}`,
    dataspaceAppId: appId,
    startDate: stamp(started),
    endDate: stamp(ended),
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
    dateCreated: stamp(created),
    tasks,
  };
}
