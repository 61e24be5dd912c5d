import { s3ErrorXml, signatureProblem } from './s3Signatures';

// AWS's own example of a signed S3 GET (Signature Version 4 documentation, "GET Object").
const credentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
const example = {
  method: 'GET',
  url: '/test.txt',
  headers: {
    host: 'examplebucket.s3.amazonaws.com',
    range: 'bytes=0-9',
    'x-amz-content-sha256':
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'x-amz-date': '20130524T000000Z',
    authorization:
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
  },
};

describe('the S3 signature check', () => {
  it("accepts AWS's documented example signature", () => {
    expect(signatureProblem(example, credentials, 'us-east-1')).toBeUndefined();
  });

  it('refuses a signature made with another secret key, as S3 does', () => {
    expect(
      signatureProblem(
        example,
        { ...credentials, secretAccessKey: 'not-the-secret' },
        'us-east-1',
      ),
    ).toMatchObject({ code: 'SignatureDoesNotMatch' });
  });

  it('refuses a changed signed header, an unknown key id, another region and a missing signature', () => {
    expect(
      signatureProblem(
        { ...example, headers: { ...example.headers, range: 'bytes=0-10' } },
        credentials,
        'us-east-1',
      ),
    ).toMatchObject({ code: 'SignatureDoesNotMatch' });
    expect(
      signatureProblem(
        example,
        { ...credentials, accessKeyId: 'OTHER' },
        'us-east-1',
      ),
    ).toMatchObject({ code: 'InvalidAccessKeyId' });
    expect(signatureProblem(example, credentials, 'eu-west-1')).toEqual({
      code: 'AuthorizationHeaderMalformed',
      message:
        "The authorization header is malformed; the region 'us-east-1' is wrong; expecting 'eu-west-1'",
    });
    expect(
      signatureProblem(
        { ...example, headers: { host: 'examplebucket.s3.amazonaws.com' } },
        credentials,
        'us-east-1',
      ),
    ).toMatchObject({ code: 'AccessDenied' });
  });

  it("answers S3's XML error", () => {
    expect(
      s3ErrorXml({ code: 'SignatureDoesNotMatch', message: 'a < b' }),
    ).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SignatureDoesNotMatch</Code><Message>a &lt; b</Message></Error>',
    );
  });
});
