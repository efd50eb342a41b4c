import { Template } from 'aws-cdk-lib/assertions';
import type { CambioStack } from '../../lib/cambio-stack.ts';

/**
 * Every alarm of the stage and its dashboard, wherever lib/observability.ts makes them: the
 * stage-wide ones and TRON's in the stage's template, each other network's in a nested stack of
 * their own. The nested stack's resources are added to the stage's with every reference into the
 * stage's template written back as the stage writes it: a nested stack reads a function's name or a
 * queue's through a parameter, which its resource in the stage's template fills (`{ Ref: <the
 * function> }`). So an alarm's dimension reads as the function or queue it watches, wherever it is.
 */
export function alarmsTemplate(stack: CambioStack, stage: Template = Template.fromStack(stack)): Template {
  const own = stage.toJSON() as { Resources: Record<string, unknown> };
  const nestedStack = stack.operations.networkAlarmsStack;
  if (!nestedStack) return Template.fromJSON(own);
  const nested = Template.fromStack(nestedStack).toJSON() as { Resources: Record<string, unknown> };
  const [resource, ...others] = Object.values(stage.findResources('AWS::CloudFormation::Stack'));
  if (!resource || others.length > 0) throw new Error('the stage should hold one nested stack, its networks’ alarms');
  const filled = (resource.Properties.Parameters ?? {}) as Record<string, unknown>;
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === 'object') {
      const ref = (value as { Ref?: unknown }).Ref;
      if (typeof ref === 'string' && Object.keys(value).length === 1 && ref in filled) return filled[ref];
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolve(inner)]));
    }
    return value;
  };
  return Template.fromJSON({ ...own, Resources: { ...own.Resources, ...(resolve(nested.Resources) as Record<string, unknown>) } });
}
