import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_API, lambdaName, JOBS } from '../../functions/routes.ts';
import { addCambioStack } from '../../lib/cambio-app.ts';

/**
 * Mail through SES (README, Deploying: context `mailFrom`): the dashboard API's function (invitations,
 * password resets) and the webhook sender (an endpoint that gives up) get the address and may send
 * from its identity, and no function may send otherwise.
 */
const stack = (context: Record<string, string>) => addCambioStack(new App({ context: { stage: 'production', 'aws:cdk:bundling-stacks': [], ...context } }));

/** Each function's name, its environment, and what its role may do with SES, on which resources. */
function mailing(template: Template) {
  const policies = Object.values(template.findResources('AWS::IAM::Policy'));
  return Object.values(template.findResources('AWS::Lambda::Function')).map((fn) => {
    const roleId: string = fn.Properties.Role['Fn::GetAtt'][0];
    const ses = policies
      .filter((policy) => policy.Properties.Roles.some((role: { Ref?: string }) => role.Ref === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
      .filter((statement) => [statement.Action].flat().some((action: string) => action.startsWith('ses:')));
    const variables = fn.Properties.Environment?.Variables ?? {};
    return { name: String(fn.Properties.FunctionName), mailFrom: variables.MAIL_FROM, configurationSet: variables.MAIL_CONFIGURATION_SET, ses };
  });
}

const identity = (name: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:identity/${name}`]] });
const configurationSet = (id: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':configuration-set/', { Ref: id }]] });

describe('mail through SES', () => {
  it('gives the dashboard API and the webhook sender alone MAIL_FROM and ses:SendEmail on that address and its domain, when mailFrom is given', () => {
    const template = Template.fromStack(stack({ mailFrom: 'no-reply@acme.example' }));
    const functions = mailing(template);
    const [setId] = Object.keys(template.findResources('AWS::SES::ConfigurationSet'));

    const senders = functions.filter((fn) => fn.mailFrom !== undefined || fn.ses.length > 0);
    expect(senders.map((fn) => fn.name).sort()).toEqual([DASHBOARD_API.handler, JOBS.webhookSender.handler].map((handler) => `Cambio-production-${lambdaName(handler)}`).sort());
    for (const sender of senders) {
      expect(sender.mailFrom).toBe('no-reply@acme.example');
      expect(sender.ses).toEqual([{ Effect: 'Allow', Action: 'ses:SendEmail', Resource: [identity('no-reply@acme.example'), identity('acme.example'), configurationSet(setId!)] }]);
      expect(sender.configurationSet).toEqual({ Ref: setId });
    }
  });

  it('sends through one configuration set that suppresses addresses that bounced or complained, and alarms on the reputation SES acts on', () => {
    const template = Template.fromStack(stack({ mailFrom: 'no-reply@acme.example' }));
    template.resourceCountIs('AWS::SES::ConfigurationSet', 1);
    template.hasResourceProperties('AWS::SES::ConfigurationSet', {
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
      ReputationOptions: { ReputationMetricsEnabled: true },
    });
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).filter((alarm) => alarm.Properties.Namespace === 'AWS/SES');
    expect(alarms.map((alarm) => [alarm.Properties.MetricName, alarm.Properties.Threshold, alarm.Properties.ComparisonOperator])).toEqual([
      ['Reputation.BounceRate', 0.02, 'GreaterThanThreshold'],
      ['Reputation.ComplaintRate', 0.0005, 'GreaterThanThreshold'],
    ]);
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toHaveLength(1);
  });

  it('mails nothing and grants no SES without it', () => {
    const template = Template.fromStack(stack({}));
    expect(mailing(template).filter((fn) => fn.mailFrom !== undefined || fn.ses.length > 0)).toEqual([]);
    template.resourceCountIs('AWS::SES::ConfigurationSet', 0);
    expect(Object.values(template.findResources('AWS::CloudWatch::Alarm')).filter((alarm) => alarm.Properties.Namespace === 'AWS/SES')).toEqual([]);
  });

  it.each([['a display name', 'Acme <no-reply@acme.example>'], ['no domain', 'no-reply'], ['two addresses', 'a@acme.example,b@acme.example']])('refuses %s', (_, mailFrom) => {
    expect(() => stack({ mailFrom })).toThrow(/Context mailFrom .* is not an email address/);
  });
});
