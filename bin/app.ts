import { App } from 'aws-cdk-lib';
import { addCambioStack } from '../lib/cambio-app.ts';

const app = new App();
try {
  addCambioStack(app);
} catch (error) {
  // A clear one-line reason instead of a stack trace from inside the CDK app.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
app.synth();
