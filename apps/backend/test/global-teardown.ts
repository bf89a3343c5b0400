import { tearDownTestDatabases } from '@rt/testing';

export default () => tearDownTestDatabases('backend');
