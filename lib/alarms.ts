import { Duration } from 'aws-cdk-lib';
import type { Alarm, ComparisonOperator, IMetric, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';

/** Five minutes: the chain jobs run every minute, so each period holds about five runs. */
export const PERIOD = Duration.minutes(5);

export type AlarmOptions = { threshold: number; evaluationPeriods?: number; datapointsToAlarm?: number; missing?: TreatMissingData; comparison?: ComparisonOperator };

/** Makes an alarm that notifies the stage's topic, when it starts and when it is over (./observability.ts). */
export type AlarmFactory = (name: string, description: string, metric: IMetric, options: AlarmOptions) => Alarm;

/** One of Cambio's own metrics (namespace Cambio, dimensions service and stage). */
export type AppMetric = (metricName: string, statistic: string, period?: Duration) => Metric;
